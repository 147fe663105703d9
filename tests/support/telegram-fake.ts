import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readMenuButton, type MenuButton } from './telegram-fake-markup.ts'
import { BotMessages } from './telegram-fake-messages.ts'
import {
  arg,
  badRequest,
  failed,
  parsed,
  readParams,
  type BotCommand,
  type Failure,
  type Params,
  type TgChat,
  type TgUpdate,
  type TgUser,
} from './telegram-fake-wire.ts'

// A local stand-in for Telegram's Bot API (https://core.telegram.org/bots/api), for tests only
// (never the internet). Where each behaviour comes from:
// - Requests go to /bot<token>/<method> with parameters in the query string, a form or JSON; an
//   answer is `{ ok: true, result }` or `{ ok: false, error_code, description, parameters? }`;
//   an unknown token is 401 Unauthorized (https://core.telegram.org/bots/api#making-requests).
// - setWebhook's secret_token comes back in X-Telegram-Bot-Api-Secret-Token with every update
//   (https://core.telegram.org/bots/api#setwebhook). Unlike Telegram the fake takes an http://
//   webhook on this host. An update the webhook did not take with a 2XY status Telegram sends
//   again, the same Update with the same update_id (#setwebhook, #update: update_id "allows you
//   to ignore repeated updates"): deliverAgain.
// - Any method can be made to answer 429 with retry_after
//   (https://core.telegram.org/bots/api#responseparameters; "Too Many Requests: retry after N":
//   https://github.com/TelegramBotAPI/errors, json/too-many-requests.json): sendMessage,
//   editMessageText and setChatMenuButton once their parameters are checked (Telegram's servers
//   hold back a call the Bot API server has read), the other methods at once.
// - A chat can have blocked the bot: 403 "Forbidden: bot was blocked by the user"; the bot
//   writes only to chats that wrote to it, else "Bad Request: chat not found".
// - The commands menus setMyCommands sets, per scope and language_code, and what the docs do not
//   allow (https://core.telegram.org/bots/api#setmycommands, #botcommand).
// - The bot's messages, their inline keyboards, edits, callback queries and their answers:
//   ./telegram-fake-messages.ts and ./telegram-fake-markup.ts, with their pages.
// - The menu button: https://core.telegram.org/bots/api#setchatmenubutton, #getchatmenubutton,
//   #menubuttonwebapp (an HTTPS Web App, #webappinfo), #menubuttoncommands, #menubuttondefault
//   ("no specific value for the menu button was set": what a new bot has).

export type { BotCommand, TgUser } from './telegram-fake-wire.ts'
export type { Answer, Edit, SentMessage } from './telegram-fake-messages.ts'
export type { MenuButton } from './telegram-fake-markup.ts'
type Delivery = { status: number; body: string; update: TgUpdate }

export class TelegramFake {
  readonly botId = 7_000_000_000 + Math.floor(Math.random() * 1_000_000)
  readonly token = `${this.botId}:${randomBytes(24).toString('base64url')}`
  readonly username = 'penny_test_bot'
  private readonly bot = {
    id: this.botId,
    is_bot: true as const,
    first_name: 'Penny test',
    username: this.username,
  }
  private readonly chats = new Map<number, TgChat>()
  private readonly blocked = new Set<number>()
  private readonly failures = new Map<string, Failure[]>()
  private messageId = 1
  private readonly messages = new BotMessages({
    bot: this.bot,
    nextMessageId: () => this.messageId++,
    chat: (id) => this.chats.get(id),
    blocked: (id) => this.blocked.has(id),
    held: (method) => this.failures.get(method)?.shift(),
  })
  /** Every message the bot sent, in order, as it was sent (`message` gives it as it is now). */
  readonly sent = this.messages.sent
  /** Every edit editMessageText made, in order. */
  readonly edits = this.messages.edits
  /** Every answer answerCallbackQuery took, in order. */
  readonly answers = this.messages.answers
  /** Every update delivered to the webhook, in order, as sent (deliverAgain sends one again). */
  readonly updates: TgUpdate[] = []
  /** Every method called, in order. */
  readonly calls: string[] = []
  webhook: { url: string; secret?: string } | null = null
  /** The commands menus, by `<scope type>|<language_code>` (an empty code: every other language). */
  readonly commands = new Map<string, BotCommand[]>()
  /** The bot's default menu button; chats given their own are in chatMenuButtons. */
  menuButton: MenuButton = { type: 'default' }
  readonly chatMenuButtons = new Map<number, MenuButton>()
  private server?: Server
  private updateId = 1000

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

  /** The next call of `method` (any case; sendMessage unless told) answers 429 with retry_after. */
  tooManyRequests(retryAfter: number, method = 'sendMessage') {
    const key = method.toLowerCase()
    const queue = this.failures.get(key) ?? []
    queue.push({
      error_code: 429,
      description: `Too Many Requests: retry after ${retryAfter}`,
      parameters: { retry_after: retryAfter },
    })
    this.failures.set(key, queue)
  }

  /** The person blocked the bot: sendMessage to their chat answers 403. */
  block(chatId: number) {
    this.blocked.add(chatId)
  }

  sentTo(chatId: number) {
    return this.sent.filter((m) => m.chatId === chatId)
  }

  /** The bot's message as Telegram keeps it now (after its edits), or undefined. */
  message(chatId: number, messageId: number) {
    return this.messages.message(chatId, messageId)
  }

  /** Delivers an update to the webhook as Telegram does, with the next update_id. */
  async deliver(update: Params): Promise<Delivery> {
    if (!this.webhook) throw new Error('no webhook set')
    const message = update.message as { chat?: TgChat; message_id?: number } | undefined
    if (message?.chat) {
      this.chats.set(message.chat.id, message.chat)
      if (message.message_id) this.messages.written(message.chat.id, message.message_id)
    }
    const full: TgUpdate = { update_id: ++this.updateId, ...update }
    this.updates.push(full)
    return this.post(full)
  }

  /** Sends an update again, the same update_id and all, as Telegram does after a non-2XY answer. */
  deliverAgain(update: TgUpdate): Promise<Delivery> {
    return this.post(update)
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

  /** `from` presses a callback button of the bot's message: its callback_query update. */
  async callbackQuery(
    from: TgUser,
    message: { chatId: number; messageId: number },
    data: string,
  ): Promise<Delivery & { queryId: string }> {
    const query = this.messages.query(from, message.chatId, message.messageId, data)
    const delivery = await this.deliver({ callback_query: query.callback_query })
    return { ...delivery, queryId: query.id }
  }

  /** The query is too old to answer: answerCallbackQuery refuses it from now on. */
  expireQuery(queryId: string) {
    this.messages.expire(queryId)
  }

  private async post(update: TgUpdate): Promise<Delivery> {
    if (!this.webhook) throw new Error('no webhook set')
    const response = await fetch(this.webhook.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(this.webhook.secret ? { 'X-Telegram-Bot-Api-Secret-Token': this.webhook.secret } : {}),
      },
      body: JSON.stringify(update),
    })
    return { status: response.status, body: await response.text(), update }
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
    if (failed(result)) return fail(result)
    answer(200, { ok: true, result: result.result })
  }

  private method(method: string, p: Params): { result: unknown } | Failure {
    switch (method) {
      case 'sendmessage':
        return this.messages.sendMessage(p)
      case 'editmessagetext':
        return this.messages.editMessageText(p)
      case 'answercallbackquery':
        return this.messages.answerCallbackQuery(p)
      case 'setchatmenubutton': {
        const button = readMenuButton(p.menu_button)
        if (failed(button)) return button
        const held = this.failures.get(method)?.shift()
        if (held) return held
        const chatId = arg(p.chat_id)
        if (!chatId) this.menuButton = button
        else if (!this.chats.has(Number(chatId))) return badRequest('chat not found')
        else this.chatMenuButtons.set(Number(chatId), button)
        return { result: true }
      }
      default: {
        const held = this.failures.get(method)?.shift()
        return held ?? this.otherMethod(method, p)
      }
    }
  }

  private otherMethod(method: string, p: Params): { result: unknown } | Failure {
    switch (method) {
      case 'getme':
        return {
          result: {
            ...this.bot,
            can_join_groups: false,
            can_read_all_group_messages: false,
            supports_inline_queries: false,
            can_connect_to_business: false,
            has_main_web_app: false,
          },
        }
      case 'getchatmenubutton': {
        const chatId = arg(p.chat_id)
        const own = chatId ? this.chatMenuButtons.get(Number(chatId)) : undefined
        return { result: structuredClone(own ?? this.menuButton) }
      }
      case 'setwebhook': {
        const url = String(p.url ?? '')
        const secret = p.secret_token === undefined ? undefined : String(p.secret_token)
        if (secret !== undefined && !/^[A-Za-z0-9_-]{1,256}$/.test(secret))
          return badRequest('secret token contains unallowed characters')
        if (url && !/^https?:\/\//.test(url))
          return badRequest('bad webhook: An HTTPS URL must be provided for webhook')
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
        if (!Array.isArray(commands)) return badRequest("can't parse commands JSON object")
        if (commands.length > 100) return badRequest('too many commands specified')
        for (const entry of commands as Array<Partial<BotCommand>>) {
          if (!/^[a-z0-9_]{1,32}$/.test(String(entry.command ?? '')))
            return badRequest('invalid command name')
          const description = String(entry.description ?? '')
          if (description.length < 1 || description.length > 256)
            return badRequest('command description is empty or too long')
        }
        const language = p.language_code === undefined ? '' : String(p.language_code)
        if (language && !/^[a-z]{2}$/.test(language)) return badRequest('invalid language code')
        const scope = (parsed(p.scope) as { type?: string } | undefined)?.type ?? 'default'
        this.commands.set(`${scope}|${language}`, commands as BotCommand[])
        return { result: true }
      }
      case 'getmycommands': {
        const language = p.language_code === undefined ? '' : String(p.language_code)
        const scope = (parsed(p.scope) as { type?: string } | undefined)?.type ?? 'default'
        return { result: this.commands.get(`${scope}|${language}`) ?? [] }
      }
      default:
        return { error_code: 404, description: 'Not Found' }
    }
  }
}
