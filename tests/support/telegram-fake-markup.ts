import {
  badRequest,
  failed,
  parsedOr,
  utf8Bytes,
  type Failure,
  type InlineKeyboard,
  type Params,
} from './telegram-fake-wire.ts'

// Inline keyboards and menu buttons as the fake Telegram (./telegram-fake.ts) takes them.
//
// What is allowed is what the docs say:
// - https://core.telegram.org/bots/api#inlinekeyboardbutton: a `text` and exactly one of the
//   optional fields; `url` is an "HTTP or tg:// URL"; `callback_data` is "1-64 bytes".
// - https://core.telegram.org/bots/api#webappinfo: `url` is "An HTTPS URL of a Web App".
// - https://core.telegram.org/bots/api#menubuttonwebapp, #menubuttoncommands,
//   #menubuttondefault, #setchatmenubutton.
// - https://core.telegram.org/bots/api#editmessagetext: `reply_markup` is "an inline keyboard".
//
// The docs give no description texts. They are Telegram's own, from its open Bot API server
// (https://github.com/tdlib/telegram-bot-api, telegram-bot-api/Client.cpp: the JSON is read
// first, every description prefixed "Bad Request: ", a capital first letter lowered) and the
// library under it (https://github.com/tdlib/td, td/telegram/ReplyMarkup.cpp, BotMenuButton.cpp,
// LinkManager.cpp: then each button is checked, links as check_link does), as reported:
// - "can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard":
//   https://github.com/theweaverlabs/televerse/issues/190
// - "can't parse inline keyboard button: Field \"url\" must be of type String":
//   https://github.com/nexor/telega/issues/29
// - "inline keyboard button Web App URL 'http://…' is invalid: Only HTTPS links are allowed", as
//   public bots on grammY quote it from Telegram's answers (GrammyError carries the description).
// - "inline keyboard button URL '…' is invalid: …", the same message for URL buttons; older
//   reports have it without the URL:
//   https://github.com/laravel-notification-channels/telegram/issues/112
// - "BUTTON_DATA_INVALID" for callback_data over 64 bytes, checked by Telegram's servers after
//   all the above: https://github.com/python-telegram-bot/python-telegram-bot/issues/528,
//   https://github.com/jehy/telegram-test-api/issues/62.
// - "can't parse menu button: MenuButton must be an Object":
//   https://github.com/telegraf/telegraf/issues/1635
// Telegram's server does not refuse a button with two of the optional fields (it keeps the first
// of url, callback_data, …); the docs forbid it, and the fake refuses it in Telegram's manner with
// a description of its own: "Exactly one of the optional fields must be used".

const ACTIONS = [
  'url',
  'callback_data',
  'callback_game',
  'pay',
  'switch_inline_query',
  'switch_inline_query_chosen_chat',
  'switch_inline_query_current_chat',
  'login_url',
  'web_app',
  'copy_text',
] as const
type Action = (typeof ACTIONS)[number]

const isObject = (value: unknown): value is Params =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** A string field as the Bot API reads it: a number is taken as its digits, anything else not. */
const str = (value: unknown) =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined

const cantFind = (field: string) => `Can't find field "${field}"`
const mustBe = (field: string, type: string) => `Field "${field}" must be of type ${type}`

/**
 * Why TDLib's check_link refuses a link, or undefined. Web Apps and login URLs take HTTPS only
 * (a host without a dot is no HTTP URL: https://localhost is refused); URL buttons take
 * http(s) and tg:// links.
 */
export function linkError(link: string, httpsOnly: boolean): string | undefined {
  let rest = link
  const tg = /^tg:/i.test(rest)
  if (tg) rest = rest.slice(3).replace(/^\/\//, '')
  let protocol = 'http'
  const scheme = /^([^:/?#@[\]]*):\/\//.exec(rest)
  if (scheme) {
    protocol = scheme[1]!.toLowerCase()
    if (protocol !== 'http' && protocol !== 'https') return 'Unsupported URL protocol'
    rest = rest.slice(scheme[0].length)
  }
  const authority = rest.split(/[/?#]/)[0]!
  const hostPort = authority.slice(authority.lastIndexOf('@') + 1)
  const port = /:([^:\]]*)$/.exec(hostPort)
  if (port && !/^\d{0,5}$/.test(port[1]!)) return 'Wrong port number specified in the URL'
  const host = port ? hostPort.slice(0, port.index) : hostPort
  if (!host) return 'URL host is empty'
  if (httpsOnly && (protocol !== 'https' || tg)) return 'Only HTTPS links are allowed'
  if (tg) return /^[A-Za-z0-9_-]+$/.test(host) ? undefined : 'Unallowed characters in URL host'
  if (!host.includes('.') && !host.startsWith('[')) return 'Wrong HTTP URL'
  return undefined
}

/** The action fields a button uses: url and callback_data only when non-empty, as Telegram reads. */
function actionsOf(button: Params): Action[] {
  return ACTIONS.filter((field) =>
    field === 'url' || field === 'callback_data' ? Boolean(str(button[field])) : field in button,
  )
}

/** The JSON reading of one button, as the Bot API server does it; a description, or undefined. */
function unreadable(button: unknown): string | undefined {
  if (!isObject(button)) return 'InlineKeyboardButton must be an Object'
  if (!('text' in button)) return cantFind('text')
  for (const field of ['text', 'url', 'callback_data'])
    if (field in button && str(button[field]) === undefined) return mustBe(field, 'String')
  const actions = actionsOf(button)
  if (actions.length === 0) return 'Text buttons are unallowed in the inline keyboard'
  if (actions.length > 1) return 'Exactly one of the optional fields must be used'
  for (const field of ['web_app', 'login_url'] as const) {
    if (actions[0] !== field) continue
    const inner = button[field]
    if (!isObject(inner)) return mustBe(field, 'Object')
    if (!('url' in inner)) return cantFind('url')
    if (str(inner.url) === undefined) return mustBe('url', 'String')
  }
  return undefined
}

/** The checks of each read button (TDLib, then Telegram's servers); a Failure, or undefined. */
function refused(rows: Params[][]): Failure | undefined {
  const buttons = rows.flat()
  for (const button of buttons) {
    if (str(button.text) === '') return badRequest('inline keyboard button text must be non-empty')
    const [action] = actionsOf(button)
    if (action === 'url') {
      const url = str(button.url)!
      const why = linkError(url, false)
      if (why) return badRequest(`inline keyboard button URL '${url}' is invalid: ${why}`)
    }
    if (action === 'web_app' || action === 'login_url') {
      const url = str((button[action] as Params).url)!
      const why = linkError(url, true)
      const name = action === 'web_app' ? 'Web App' : 'login'
      if (why) return badRequest(`inline keyboard button ${name} URL '${url}' is invalid: ${why}`)
    }
  }
  for (const button of buttons)
    if (utf8Bytes(str(button.callback_data) ?? '') > 64) return badRequest('BUTTON_DATA_INVALID')
  return undefined
}

/**
 * A reply_markup as sendMessage (any keyboard) or editMessageText (`onlyInline`) takes it: a
 * Failure, or the inline keyboard Telegram attaches to the message (each button with its text
 * and its one action; none when it has no buttons or is another kind of keyboard).
 */
export function readMarkup(
  raw: unknown,
  onlyInline: boolean,
): { inline?: InlineKeyboard } | Failure {
  if (raw === undefined || raw === '') return {}
  const value = parsedOr(raw, "can't parse reply keyboard markup JSON object")
  if (failed(value)) return value
  if (!isObject(value)) return badRequest('object expected as reply markup')
  if (!('inline_keyboard' in value)) return onlyInline ? badRequest('inline keyboard expected') : {}
  const keyboard = value.inline_keyboard
  if (!Array.isArray(keyboard)) return badRequest('field "inline_keyboard" must be of type Array')
  if (!keyboard.every(Array.isArray))
    return badRequest(
      'field "inline_keyboard" of the InlineKeyboardMarkup must be an Array of Arrays',
    )
  for (const button of (keyboard as unknown[][]).flat()) {
    const why = unreadable(button)
    if (why) return badRequest(`can't parse inline keyboard button: ${why}`)
  }
  const rows = (keyboard as Params[][]).filter((row) => row.length > 0)
  const refusal = refused(rows)
  if (refusal) return refusal
  if (rows.length === 0) return {}
  const inline_keyboard = rows.map((row) =>
    row.map((button) => {
      const action = actionsOf(button)[0]!
      const value =
        action === 'url' || action === 'callback_data' ? str(button[action]) : button[action]
      return { text: str(button.text), [action]: value }
    }),
  )
  return { inline: { inline_keyboard } }
}

/** https://core.telegram.org/bots/api#menubutton */
export type MenuButton =
  | { type: 'default' }
  | { type: 'commands' }
  | { type: 'web_app'; text: string; web_app: { url: string } }

/** setChatMenuButton's menu_button (absent: the default one); a Failure, or the button. */
export function readMenuButton(raw: unknown): MenuButton | Failure {
  if (raw === undefined || raw === '') return { type: 'default' }
  const value = parsedOr(raw, "can't parse menu button JSON object")
  if (failed(value)) return value
  const why = (reason: string) => badRequest(`can't parse menu button: ${reason}`)
  if (!isObject(value)) return why('MenuButton must be an Object')
  if (!('type' in value)) return why(cantFind('type'))
  const type = str(value.type)
  if (type === undefined) return why(mustBe('type', 'String'))
  if (type === 'default' || type === 'commands') return { type }
  if (type !== 'web_app') return why('MenuButton has unsupported type')
  if (!('text' in value)) return why(cantFind('text'))
  const text = str(value.text)
  if (text === undefined) return why(mustBe('text', 'String'))
  if (!('web_app' in value)) return why(cantFind('web_app'))
  if (!isObject(value.web_app)) return why(mustBe('web_app', 'Object'))
  if (!('url' in value.web_app)) return why(cantFind('url'))
  const url = str(value.web_app.url)
  if (url === undefined) return why(mustBe('url', 'String'))
  if (!text) return badRequest('menu button text must be non-empty')
  const linkWhy = linkError(url, true)
  if (linkWhy) return badRequest(`menu button Web App URL '${url}' is invalid: ${linkWhy}`)
  return { type: 'web_app', text, web_app: { url } }
}
