// npm run telegram:webhook [-- --url URL | --delete | --info]
// Tells Telegram where to deliver the bot's updates (setWebhook with the secret token), stops
// the delivery (deleteWebhook) or shows what Telegram has (getWebhookInfo). The URL defaults to
// PUBLIC_ORIGIN + /api/telegram/webhook (docs/operations.md#telegram-bot).
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { Api } from 'grammy'
import { parseEnv } from '../app/utils/env.server.ts'
import { telegramConfig, type TelegramConfig } from '../app/utils/env-telegram.server.ts'
import { fallbackLanguage } from '../app/i18n/config.ts'
import { getFixedT } from '../app/i18n/i18next.server.ts'
import { MINI_APP_PATH } from '../app/utils/telegram-web-app.ts'

export const WEBHOOK_PATH = '/api/telegram/webhook'

/** The updates the bot reads: messages (commands, shared contacts) and its buttons' taps. */
const ALLOWED_UPDATES = ['message', 'callback_query'] as const

/**
 * Sets the webhook and, when the site has an HTTPS address (Telegram opens a Mini App from no
 * other, https://core.telegram.org/bots/api#menubuttonwebapp), the bot's menu button that opens
 * the site as its Mini App (docs/operations.md#telegram-mini-app).
 */
export async function setBotWebhook(config: TelegramConfig, url: string) {
  const api = new Api(config.token, { apiRoot: config.apiRoot })
  await api.setWebhook(url, {
    secret_token: config.webhookSecret,
    allowed_updates: [...ALLOWED_UPDATES],
  })
  const origin = new URL(url).origin
  if (origin.startsWith('https://')) {
    const t = await getFixedT(fallbackLanguage, 'telegram')
    await api.setChatMenuButton({
      menu_button: {
        type: 'web_app',
        text: t('bot.menuButton'),
        web_app: { url: `${origin}${MINI_APP_PATH}` },
      },
    })
  }
  return api.getWebhookInfo()
}

async function main() {
  const { values } = parseArgs({
    options: {
      url: { type: 'string' },
      delete: { type: 'boolean', default: false },
      info: { type: 'boolean', default: false },
    },
    strict: true,
  })
  const env = parseEnv()
  const config = telegramConfig(env)
  if (!config)
    throw new Error(
      'TELEGRAM_BOT_TOKEN, TELEGRAM_BOT_USERNAME and TELEGRAM_WEBHOOK_SECRET are not set',
    )
  const api = new Api(config.token, { apiRoot: config.apiRoot })
  if (values.delete) {
    await api.deleteWebhook()
    console.log('webhook deleted')
    return
  }
  if (!values.info) {
    const url = values.url ?? (env.PUBLIC_ORIGIN ? `${env.PUBLIC_ORIGIN}${WEBHOOK_PATH}` : null)
    if (!url) throw new Error('give --url or set PUBLIC_ORIGIN')
    await setBotWebhook(config, url)
    console.log(`webhook set: ${url}`)
  }
  console.log(JSON.stringify(await api.getWebhookInfo(), null, 2))
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error))
    process.exit(1)
  })
}
