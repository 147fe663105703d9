import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

// A local stand-in for Telegram's Bot API (https://core.telegram.org/bots/api), for tests only
// (never the internet). As the docs say: requests go to /bot<token>/<method> with parameters in
// the query string, a form or JSON; every answer is `{ ok: true, result }` or `{ ok: false,
// error_code, description, parameters? }`; an unknown token is 401 Unauthorized; setWebhook's
// secret_token comes back in X-Telegram-Bot-Api-Secret-Token with every update it delivers
// (https://core.telegram.org/bots/api#setwebhook). Unlike Telegram it accepts an http:// webhook
// on this host. It can be told to answer 429 with retry_after
// (https://core.telegram.org/bots/api#responseparameters), or that a chat blocked the bot. It
// keeps the commands menus setMyCommands sets, per scope and language_code, and refuses what the
// docs do not allow (https://core.telegram.org/bots/api#setmycommands, #botcommand).

type Params = Record<string, unknown>
export type TgUser = { id: number; first_name: string; language_code?: string; is_bot?: false }
export type SentMessage = {
  chatId: number
  text: string
  replyMarkup?: Params
  linkPreview?: Params
}
type Failure = { error_code: number; description: string; parameters?: { retry_after: number } }
export type BotCommand = { command: string; description: string }

export class TelegramFake {
  readonly botId = 7_000_000_000 + Math.floor(Math.random() * 1_000_000)
  readonly token = `${this.botId}:${randomBytes(24).toString('base64url')}`
  readonly username = 'penny_test_bot'
  /** Every message the bot sent, in order. */
  readonly sent: SentMessage[] = []
  /** Every method called, in order. */
  readonly calls: string[] = []
  webhook: { url: string; secret?: string } | null = null
  /** The commands menus, by `<scope type>|<language_code>` (an empty code: every other language). */
  readonly commands = new Map<string, BotCommand[]>()
  private server?: Server
  private updateId = 1000
  private messageId = 1
  /** Chats that wrote to the bot: Telegram lets a bot write only to those. */
  private readonly known = new Set<number>()
  private readonly blocked = new Set<number>()
  private readonly failures: Failure[] = []

  get apiRoot() {
    const { port } = this.server!.address() as AddressInfo
    return `http://127.0.0.1:${port}`
  }

  async start() {
    this.server = createServer((req, res) => void this.handle(req, res))
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve))
    return this
  }

  async stop() {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()))
  }

  /** The next sendMessage answers 429 Too Many Requests with this retry_after. */
  tooManyRequests(retryAfter: number) {
    this.failures.push({
      error_code: 429,
      description: `Too Many Requests: retry after ${retryAfter}`,
      parameters: { retry_after: retryAfter },
    })
  }

  /** The person blocked the bot: sendMessage to their chat answers 403. */
  block(chatId: number) {
    this.blocked.add(chatId)
  }

  sentTo(chatId: number) {
    return this.sent.filter((m) => m.chatId === chatId)
  }

  /** Delivers an update to the webhook as Telegram does; the app's answer. */
  async deliver(update: Params): Promise<{ status: number; body: string }> {
    if (!this.webhook) throw new Error('no webhook set')
    const message = update.message as { chat?: { id: number } } | undefined
    if (message?.chat) this.known.add(message.chat.id)
    const response = await fetch(this.webhook.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(this.webhook.secret ? { 'X-Telegram-Bot-Api-Secret-Token': this.webhook.secret } : {}),
      },
      body: JSON.stringify({ update_id: ++this.updateId, ...update }),
    })
    return { status: response.status, body: await response.text() }
  }

  /** A private text message from `from`, with its commands marked as Telegram marks them. */
  text(from: TgUser, text: string) {
    const entities = [...text.matchAll(/(^|\s)(\/[A-Za-z0-9_]{1,32}(@[A-Za-z0-9_]+)?)/g)].map(
      (m) => ({ type: 'bot_command', offset: m.index + m[1]!.length, length: m[2]!.length }),
    )
    return this.deliver({
      message: { ...this.envelope(from), text, ...(entities.length ? { entities } : {}) },
    })
  }

  /** A shared contact (the request_contact button sends the sender's own, with user_id). */
  contact(from: TgUser, contact: { phone_number: string; user_id?: number; first_name: string }) {
    return this.deliver({ message: { ...this.envelope(from), contact } })
  }

  private envelope(from: TgUser) {
    return {
      message_id: this.messageId++,
      date: Math.floor(Date.now() / 1000),
      chat: { id: from.id, type: 'private', first_name: from.first_name },
      from: { is_bot: false, ...from },
    }
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const answer = (status: number, body: Params) => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(body))
    }
    const fail = (f: Failure) => answer(f.error_code, { ok: false, ...f })
    const url = new URL(req.url ?? '/', 'http://fake')
    const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname)
    if (!match || match[1] !== this.token)
      return fail({ error_code: 401, description: 'Unauthorized' })
    const method = match[2]!.toLowerCase()
    this.calls.push(method)
    const params = { ...Object.fromEntries(url.searchParams), ...(await readParams(req)) }
    const result = this.method(method, params)
    if ('error_code' in result) return fail(result)
    answer(200, { ok: true, result: result.result })
  }

  private method(method: string, p: Params): { result: unknown } | Failure {
    const bad = (description: string) => ({
      error_code: 400,
      description: `Bad Request: ${description}`,
    })
    switch (method) {
      case 'getme':
        return {
          result: {
            id: this.botId,
            is_bot: true,
            first_name: 'Penny test',
            username: this.username,
            can_join_groups: false,
            can_read_all_group_messages: false,
            supports_inline_queries: false,
            can_connect_to_business: false,
            has_main_web_app: false,
          },
        }
      case 'setwebhook': {
        const url = String(p.url ?? '')
        const secret = p.secret_token === undefined ? undefined : String(p.secret_token)
        if (secret !== undefined && !/^[A-Za-z0-9_-]{1,256}$/.test(secret))
          return bad('secret token contains unallowed characters')
        if (url && !/^https?:\/\//.test(url))
          return bad('bad webhook: An HTTPS URL must be provided for webhook')
        this.webhook = url ? { url, secret } : null
        return { result: true }
      }
      case 'deletewebhook':
        this.webhook = null
        return { result: true }
      case 'getwebhookinfo':
        return {
          result: {
            url: this.webhook?.url ?? '',
            has_custom_certificate: false,
            pending_update_count: 0,
          },
        }
      case 'setmycommands': {
        const commands = parsed(p.commands) as unknown
        if (!Array.isArray(commands)) return bad("can't parse commands JSON object")
        if (commands.length > 100) return bad('too many commands specified')
        for (const entry of commands as Array<Partial<BotCommand>>) {
          if (!/^[a-z0-9_]{1,32}$/.test(String(entry.command ?? '')))
            return bad('invalid command name')
          const description = String(entry.description ?? '')
          if (description.length < 1 || description.length > 256)
            return bad('command description is empty or too long')
        }
        const language = p.language_code === undefined ? '' : String(p.language_code)
        if (language && !/^[a-z]{2}$/.test(language)) return bad('invalid language code')
        const scope = (parsed(p.scope) as { type?: string } | undefined)?.type ?? 'default'
        this.commands.set(`${scope}|${language}`, commands as BotCommand[])
        return { result: true }
      }
      case 'getmycommands': {
        const language = p.language_code === undefined ? '' : String(p.language_code)
        const scope = (parsed(p.scope) as { type?: string } | undefined)?.type ?? 'default'
        return { result: this.commands.get(`${scope}|${language}`) ?? [] }
      }
      case 'sendmessage': {
        if (p.chat_id === undefined || p.chat_id === '') return bad('chat_id is empty')
        const text = typeof p.text === 'string' ? p.text : ''
        if (!text.trim()) return bad('message text is empty')
        if (text.length > 4096) return bad('message is too long')
        const failure = this.failures.shift()
        if (failure) return failure
        const chatId = Number(p.chat_id)
        if (this.blocked.has(chatId))
          return { error_code: 403, description: 'Forbidden: bot was blocked by the user' }
        if (!this.known.has(chatId)) return bad('chat not found')
        this.sent.push({
          chatId,
          text,
          replyMarkup: parsed(p.reply_markup),
          linkPreview: parsed(p.link_preview_options),
        })
        const chat = { id: chatId, type: 'private' }
        return {
          result: { message_id: this.messageId++, date: Math.floor(Date.now() / 1000), chat, text },
        }
      }
      default:
        return { error_code: 404, description: 'Not Found' }
    }
  }
}

/** Objects come as JSON text in a form or a query string, as objects in a JSON body. */
function parsed(value: unknown): Params | undefined {
  if (value === undefined) return undefined
  return typeof value === 'string' ? (JSON.parse(value) as Params) : (value as Params)
}

async function readParams(req: IncomingMessage): Promise<Params> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  const body = Buffer.concat(chunks).toString('utf8')
  if (!body) return {}
  const type = req.headers['content-type'] ?? ''
  if (type.includes('application/json')) return JSON.parse(body) as Params
  return Object.fromEntries(new URLSearchParams(body))
}
