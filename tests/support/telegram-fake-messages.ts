import { randomInt } from 'node:crypto'
import { readMarkup } from './telegram-fake-markup.ts'
import {
  arg,
  badRequest,
  characters,
  failed,
  now,
  parsed,
  type Failure,
  type InlineKeyboard,
  type Params,
  type TgChat,
  type TgMessage,
  type TgUser,
} from './telegram-fake-wire.ts'

// The bot's messages in the fake Telegram (./telegram-fake.ts): what sendMessage sends, what
// editMessageText changes, the callback queries their buttons give and answerCallbackQuery.
//
// - https://core.telegram.org/bots/api#sendmessage: text 1-4096 characters; the answer is the
//   sent Message (https://core.telegram.org/bots/api#message), with its reply_markup when it is
//   an inline keyboard ("Inline keyboard attached to the message").
// - https://core.telegram.org/bots/api#editmessagetext: by chat_id and message_id, text 1-4096
//   characters, reply_markup "an inline keyboard" (none given: the message keeps none); the
//   answer is the edited Message, with edit_date.
// - https://core.telegram.org/bots/api#callbackquery: a string id unique to the query, from,
//   message (the bot's message with the button), chat_instance (one per chat), data. Telegram
//   sends what the client sends: data need not be on any button of the message.
// - https://core.telegram.org/bots/api#answercallbackquery: callback_query_id, text "0-200
//   characters", show_alert. The docs give no time limit for the answer: a query is refused once
//   answered, or when the test says it is too old (expire).
//
// The descriptions are Telegram's own (https://github.com/tdlib/telegram-bot-api,
// telegram-bot-api/Client.cpp), as reported:
// - "message is not modified: specified new message content and reply markup are exactly the
//   same as a current content and reply markup of the message":
//   https://github.com/eternnoir/pyTelegramBotAPI/issues/763,
//   https://github.com/tdlib/telegram-bot-api/issues/587 (quoted by grammY)
// - "message to edit not found": https://github.com/tdlib/telegram-bot-api/issues/400,
//   https://github.com/TelegramBotAPI/errors/issues/7
// - "message can't be edited" (a message the bot did not send):
//   https://github.com/nickoala/telepot/issues/226
// - "query is too old and response timeout expired or query ID is invalid", also for a missing
//   callback_query_id (read as 0): https://github.com/EdJoPaTo/grammy-inline-menu/issues/64,
//   https://github.com/nutgram/nutgram/issues/725
// - "MESSAGE_TOO_LONG", Telegram's servers' own word, for an answer's text over 200 characters
//   (https://github.com/eternnoir/pyTelegramBotAPI/issues/500) and for an edit's text over 4096
//   (https://github.com/teloxide/teloxide/issues/430); sendMessage says "message is too long".
// - "message text is empty", "chat_id is empty", "message identifier is not specified": the Bot
//   API server's checks of the parameters (Client.cpp), before any message is looked at.

export type SentMessage = {
  chatId: number
  messageId: number
  text: string
  replyMarkup?: Params
  linkPreview?: Params
}
export type Edit = { chatId: number; messageId: number; text: string; replyMarkup?: InlineKeyboard }
export type Answer = { queryId: string; text?: string; showAlert?: boolean }
/** What the messages need of the rest of the fake. */
export type World = {
  bot: TgMessage['from']
  nextMessageId: () => number
  chat: (id: number) => TgChat | undefined
  blocked: (id: number) => boolean
  /** A 429 the test asked for, for the next call of this method. */
  held: (method: string) => Failure | undefined
}
type Result = { result: unknown } | Failure

const NOT_MODIFIED =
  'message is not modified: specified new message content and reply markup are exactly the same ' +
  'as a current content and reply markup of the message'
const QUERY_INVALID = 'query is too old and response timeout expired or query ID is invalid'

const key = (chatId: number, messageId: number) => `${chatId}:${messageId}`
const toBool = (value: unknown) => value === true || value === 'true' || value === '1'

export class BotMessages {
  readonly sent: SentMessage[] = []
  readonly edits: Edit[] = []
  readonly answers: Answer[] = []
  private readonly messages = new Map<string, TgMessage>()
  private readonly fromPeople = new Set<string>()
  private readonly queries = new Map<string, 'open' | 'answered' | 'expired'>()
  private readonly chatInstances = new Map<number, string>()

  constructor(private readonly world: World) {}

  /** The bot's message as it is now (after its edits). */
  message(chatId: number, messageId: number): TgMessage | undefined {
    const message = this.messages.get(key(chatId, messageId))
    return message && structuredClone(message)
  }

  /** A message a person wrote: the bot can read it, not edit it. */
  written(chatId: number, messageId: number) {
    this.fromPeople.add(key(chatId, messageId))
  }

  /** The callback_query a press of a button of the bot's message gives. */
  query(from: TgUser, chatId: number, messageId: number, data: string) {
    const message = this.message(chatId, messageId)
    if (!message) throw new Error(`the bot sent no message ${messageId} to chat ${chatId}`)
    const id = `${randomInt(100_000_000, 999_999_999)}${String(this.queries.size).padStart(10, '0')}`
    this.queries.set(id, 'open')
    let instance = this.chatInstances.get(chatId)
    if (!instance) {
      instance = `-${randomInt(100_000_000, 999_999_999)}${randomInt(100_000_000, 999_999_999)}`
      this.chatInstances.set(chatId, instance)
    }
    const callback_query = {
      id,
      from: { is_bot: false, ...from },
      message,
      chat_instance: instance,
      data,
    }
    return { id, callback_query }
  }

  /** The query is past answering, as Telegram refuses a late answer. */
  expire(queryId: string) {
    if (this.queries.has(queryId)) this.queries.set(queryId, 'expired')
  }

  sendMessage(p: Params): Result {
    if (arg(p.chat_id) === '') return badRequest('chat_id is empty')
    const text = typeof p.text === 'string' ? p.text : ''
    if (!text.trim()) return badRequest('message text is empty')
    if (characters(text) > 4096) return badRequest('message is too long')
    const markup = readMarkup(p.reply_markup, false)
    if (failed(markup)) return markup
    const held = this.world.held('sendmessage')
    if (held) return held
    const chatId = Number(p.chat_id)
    if (this.world.blocked(chatId))
      return { error_code: 403, description: 'Forbidden: bot was blocked by the user' }
    const chat = this.world.chat(chatId)
    if (!chat) return badRequest('chat not found')
    const message: TgMessage = {
      message_id: this.world.nextMessageId(),
      from: this.world.bot,
      chat,
      date: now(),
      text,
      ...(markup.inline ? { reply_markup: markup.inline } : {}),
    }
    this.messages.set(key(chatId, message.message_id), message)
    this.sent.push({
      chatId,
      messageId: message.message_id,
      text,
      replyMarkup: parsed(p.reply_markup),
      linkPreview: parsed(p.link_preview_options),
    })
    return { result: structuredClone(message) }
  }

  editMessageText(p: Params): Result {
    const text = arg(p.text)
    if (!text.trim()) return badRequest('message text is empty')
    const markup = readMarkup(p.reply_markup, true)
    if (failed(markup)) return markup
    const chatArg = arg(p.chat_id)
    const messageId = /^\d+$/.test(arg(p.message_id)) ? Number(arg(p.message_id)) : 0
    if (!chatArg && messageId === 0)
      // The fake sends nothing in inline mode: no inline_message_id is one it gave (TDLib's
      // word for one it cannot read, td/telegram/InlineMessageManager.cpp).
      return badRequest(
        p.inline_message_id
          ? 'invalid inline message identifier specified'
          : 'message identifier is not specified',
      )
    if (!chatArg) return badRequest('chat_id is empty')
    const chatId = Number(chatArg)
    if (!this.world.chat(chatId)) return badRequest('chat not found')
    if (this.fromPeople.has(key(chatId, messageId))) return badRequest("message can't be edited")
    const message = this.messages.get(key(chatId, messageId))
    if (!message) return badRequest('message to edit not found')
    const held = this.world.held('editmessagetext')
    if (held) return held
    if (characters(text) > 4096) return badRequest('MESSAGE_TOO_LONG')
    const same = JSON.stringify(markup.inline) === JSON.stringify(message.reply_markup)
    if (text === message.text && same) return badRequest(NOT_MODIFIED)
    message.text = text
    message.edit_date = now()
    if (markup.inline) message.reply_markup = markup.inline
    else delete message.reply_markup
    this.edits.push({
      chatId,
      messageId,
      text,
      ...(markup.inline ? { replyMarkup: markup.inline } : {}),
    })
    return { result: structuredClone(message) }
  }

  answerCallbackQuery(p: Params): Result {
    const held = this.world.held('answercallbackquery')
    if (held) return held
    const queryId = arg(p.callback_query_id)
    if (this.queries.get(queryId) !== 'open') return badRequest(QUERY_INVALID)
    const text = p.text === undefined ? undefined : arg(p.text)
    if (text !== undefined && characters(text) > 200) return badRequest('MESSAGE_TOO_LONG')
    this.queries.set(queryId, 'answered')
    this.answers.push({
      queryId,
      ...(text !== undefined ? { text } : {}),
      ...(p.show_alert !== undefined ? { showAlert: toBool(p.show_alert) } : {}),
    })
    return { result: true }
  }
}
