import type { AppLoadContext } from '@remix-run/node'
import { appEngine, serveOnThisHost } from './site-server.ts'
import { TelegramFake, type TgUser } from './telegram-fake.ts'

// The bot's side of the site for integration tests: a fake Telegram (./telegram-fake.ts) set
// in the environment before any application module reads it, the app's webhook route served
// over HTTP on this host and registered with the fake through the operator's setWebhook script,
// and the engine with its outbox on the test's own Postgres and Redis.

export const WEBHOOK_SECRET = 'test-webhook-secret-0123456789'

export async function startTelegramSite() {
  const fake = await new TelegramFake().start()
  process.env.TELEGRAM_BOT_TOKEN = fake.token
  process.env.TELEGRAM_BOT_USERNAME = fake.username
  process.env.TELEGRAM_WEBHOOK_SECRET = WEBHOOK_SECRET
  process.env.TELEGRAM_API_ROOT = fake.apiRoot

  const { OutboxWorker } = await import('../../engine/index.ts')
  const { getTelegramConfig } = await import('~/services/telegram/config.server.ts')
  const { createUser } = await import('~/models/user.server.ts')
  const { createSession } = await import('~/services/auth.server.ts')
  const { getSettings } = await import('~/models/settings.server.ts')
  const { saveSettings } = await import('~/services/settings-sync.server.ts')
  const { settingsSchema } = await import('~/validation/admin-settings.ts')
  const webhookRoute = await import('~/routes/api/api.telegram.webhook.ts')
  const profileRoute = await import('~/routes/account/profile_.telegram.ts')
  const { setBotWebhook, WEBHOOK_PATH } = await import('../../scripts/telegram-webhook.ts')

  const { engine, prisma, env } = await appEngine()
  const outbox = new OutboxWorker(engine, `telegram-${process.pid}`, env.DATABASE_URL)
  const context = { engine, clientIp: '127.0.0.1' } as unknown as AppLoadContext

  const { server, origin } = await serveOnThisHost((request) =>
    webhookRoute.action({ request, context, params: {} }),
  )
  const webhookUrl = `${origin}${WEBHOOK_PATH}`
  await setBotWebhook(getTelegramConfig()!, webhookUrl)

  let counter = 0
  /** A new account (created as the registration does, with the settings of the moment). */
  async function newUser() {
    const username = `tg${Date.now().toString(36)}${counter++}`
    const { id } = await createUser(engine, {
      username,
      email: `${username}@mail.kg`,
      password: 'secret12',
      ipAddress: null,
    })
    return { id, username }
  }

  /** POST /profile/telegram as the signed-in `userId`. */
  async function profilePost(userId: string, intent: string) {
    const cookie = (
      await createSession(new Request('http://localhost/'), userId, '127.0.0.1')
    ).split(';')[0]!
    const request = new Request('http://localhost/profile/telegram', {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ intent }),
    })
    try {
      return await profileRoute.action({ request, context, params: {} })
    } catch (thrown) {
      if (thrown instanceof Response) return thrown
      throw thrown
    }
  }

  /** The start token of the profile's t.me link for `userId`. */
  async function linkToken(userId: string) {
    const response = await profilePost(userId, 'link')
    const location = new URL(response.headers.get('location') ?? '')
    if (`${location.origin}${location.pathname}` !== `https://t.me/${fake.username}`)
      throw new Error(`not the bot's link: ${location.href}`)
    return location.searchParams.get('start') ?? ''
  }

  /** Saves the setting as the admin page and PUT /api/admin/settings do (the JSON's form). */
  async function setFreeBidsNeedPhone(on: boolean) {
    const input = settingsSchema.parse({ ...(await getSettings()), freeBidsNeedPhone: on })
    const saved = await saveSettings(engine, input)
    if (saved.freeBidsNeedPhone !== on) throw new Error('setting not saved')
  }

  /** Links a new Telegram person's chat to `userId` through the profile's link. */
  async function linked(userId: string, from: TgUser) {
    const answer = await fake.text(from, `/start ${await linkToken(userId)}`)
    if (answer.status !== 200) throw new Error(`webhook answered ${answer.status}`)
  }

  return {
    fake,
    engine,
    outbox,
    prisma,
    webhookUrl,
    newUser,
    profilePost,
    linkToken,
    linked,
    setFreeBidsNeedPhone,
    async stop() {
      await outbox.stop()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await fake.stop()
    },
  }
}

let nextTelegramId = 5_000_000 + Math.floor(Math.random() * 1_000_000)
/** A Telegram person the site has never seen. */
export function tgUser(language_code?: string): TgUser {
  return { id: nextTelegramId++, first_name: 'Aibek', ...(language_code ? { language_code } : {}) }
}
