import type { IncomingMessage } from 'node:http'

// What the fake Telegram (./telegram-fake.ts) and its parts share: the objects of the Bot API it
// speaks (https://core.telegram.org/bots/api#available-types) and its refusals. Every answer is
// `{ ok: true, result }` or `{ ok: false, error_code, description, parameters? }`
// (https://core.telegram.org/bots/api#making-requests, #responseparameters).

export type Params = Record<string, unknown>
export type TgUser = { id: number; first_name: string; language_code?: string; is_bot?: false }
export type BotCommand = { command: string; description: string }
export type Failure = {
  error_code: number
  description: string
  parameters?: { retry_after: number }
}
/** https://core.telegram.org/bots/api#inlinekeyboardmarkup, as Telegram hands it back. */
export type InlineKeyboard = { inline_keyboard: Params[][] }
/** https://core.telegram.org/bots/api#chat (a private chat: the only kind the fake knows). */
export type TgChat = { id: number; type: 'private'; first_name?: string }
/** https://core.telegram.org/bots/api#message: the part of it a text message of the bot has. */
export type TgMessage = {
  message_id: number
  from: { id: number; is_bot: true; first_name: string; username: string }
  chat: TgChat
  date: number
  edit_date?: number
  text: string
  reply_markup?: InlineKeyboard
}
/** https://core.telegram.org/bots/api#update: update_id and one kind of update. */
export type TgUpdate = { update_id: number } & Params

export const failed = (value: unknown): value is Failure =>
  typeof value === 'object' && value !== null && 'error_code' in value

export const badRequest = (description: string): Failure => ({
  error_code: 400,
  description: `Bad Request: ${description}`,
})

export const now = () => Math.floor(Date.now() / 1000)

/** A text's characters: UTF-16 code units, the docs' unit for offsets (#messageentity). */
export const characters = (text: string) => text.length

/** callback_data is limited in bytes of UTF-8, not in characters. */
export const utf8Bytes = (text: string) => Buffer.byteLength(text, 'utf8')

/** Objects come as JSON text in a form or a query string, as objects in a JSON body. */
export function parsed(value: unknown): Params | undefined {
  if (value === undefined) return undefined
  return typeof value === 'string' ? (JSON.parse(value) as Params) : (value as Params)
}

/** As parsed, but JSON text that does not parse is `Failure` with the description given. */
export function parsedOr(value: unknown, description: string): unknown {
  if (typeof value !== 'string') return value
  try {
    return JSON.parse(value) as unknown
  } catch {
    return badRequest(description)
  }
}

/** A parameter as the Bot API reads it: a string, an empty one when absent. */
export const arg = (value: unknown) =>
  value === undefined || value === null ? '' : String(value as string | number)

export async function readParams(req: IncomingMessage): Promise<Params> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  const body = Buffer.concat(chunks).toString('utf8')
  if (!body) return {}
  const type = req.headers['content-type'] ?? ''
  if (type.includes('application/json')) return JSON.parse(body) as Params
  return Object.fromEntries(new URLSearchParams(body))
}
