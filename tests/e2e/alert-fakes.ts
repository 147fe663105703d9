import { inject } from 'vitest'
import type { ControlRequest } from '../support/alert-fakes.ts'
import type { ReceivedPush } from '../support/push-service-fake.ts'
import type { SentMessage, TgUser } from '../support/telegram-fake.ts'

// The browser tests' side of the fake Telegram and push service that the server under test talks
// to (started by tests/e2e/global-setup.ts, tests/support/alert-fakes.ts).

async function control<T>(request: ControlRequest): Promise<T> {
  const response = await fetch(inject('alertFakesUrl'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(request),
  })
  if (!response.ok)
    throw new Error(`the fakes answered ${response.status}: ${await response.text()}`)
  return (await response.json()) as T
}

let nextTelegramId = 6_000_000 + Math.floor(Math.random() * 1_000_000)
/** A Telegram person the site has never seen (ids apart across files and runs). */
export function telegramUser(language_code: string): TgUser {
  return { id: nextTelegramId++ * 10 + (process.pid % 10), first_name: 'Aida', language_code }
}

export const telegram = {
  /** A private message from `from` delivered to the site's webhook; the site's answer. */
  text: (from: TgUser, text: string) =>
    control<{ status: number; body: string }>({ op: 'text', from, text }),
  /** `from` shares a contact (their own through the bot's button: user_id is theirs). */
  contact: (
    from: TgUser,
    contact: { phone_number: string; user_id?: number; first_name: string },
  ) => control<{ status: number; body: string }>({ op: 'contact', from, contact }),
  /** Launch data Telegram's client gives the Mini App opened by `from` (tests/support/telegram-launch.ts). */
  launch: async (
    from: TgUser,
    options: { authDate?: number; startParam?: string; otherBot?: boolean } = {},
  ) => (await control<{ initData: string }>({ op: 'launch', from, ...options })).initData,
  /** What the bot sent to the chat so far. */
  sentTo: (chatId: number) => control<SentMessage[]>({ op: 'sent', chatId }),
}

export const pushService = {
  /** A new endpoint, as a browser gets one subscribing with the site's key. */
  newEndpoint: async (applicationServerKey: string) =>
    (await control<{ endpoint: string }>({ op: 'newEndpoint', applicationServerKey })).endpoint,
  /** The pushes the service took for `endpoint`, their bodies still encrypted. */
  received: async (endpoint: string) =>
    (
      await control<(Omit<ReceivedPush, 'body'> & { body: string })[]>({
        op: 'received',
        endpoint,
      })
    ).map((push) => ({ ...push, body: Buffer.from(push.body, 'base64') })),
}
