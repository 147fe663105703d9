// What the fake Telegram (./telegram-fake.ts) refuses of reply markups and menu buttons, and
// the description after "Bad Request: " it answers each with (./telegram-fake-markup.ts gives
// their sources): the cases of tests/integration/telegram-fake.test.ts.

const one = (button: unknown) => ({ inline_keyboard: [[button]] })
const cant = (why: string) => `can't parse inline keyboard button: ${why}`
const webAppUrl = (url: string, why: string) =>
  `inline keyboard button Web App URL '${url}' is invalid: ${why}`

/** [case, reply_markup, description] */
export const refusedMarkups: [string, unknown, string][] = [
  [
    'callback_data of 65 bytes',
    one({ text: 'a', callback_data: 'x'.repeat(65) }),
    'BUTTON_DATA_INVALID',
  ],
  [
    '33 two-byte letters, 66 bytes',
    one({ text: 'a', callback_data: 'ж'.repeat(33) }),
    'BUTTON_DATA_INVALID',
  ],
  ['17 emoji, 68 bytes', one({ text: 'a', callback_data: '🙂'.repeat(17) }), 'BUTTON_DATA_INVALID'],
  [
    'two actions',
    one({ text: 'a', url: 'https://penny.kg', callback_data: 'b' }),
    cant('Exactly one of the optional fields must be used'),
  ],
  ['no action', one({ text: 'a' }), cant('Text buttons are unallowed in the inline keyboard')],
  [
    'empty callback_data',
    one({ text: 'a', callback_data: '' }),
    cant('Text buttons are unallowed in the inline keyboard'),
  ],
  ['no text', one({ callback_data: 'b' }), cant('Can\'t find field "text"')],
  ['url null', one({ text: 'a', url: null }), cant('Field "url" must be of type String')],
  ['a string for a button', one('Bid'), cant('InlineKeyboardButton must be an Object')],
  ['web_app without url', one({ text: 'a', web_app: {} }), cant('Can\'t find field "url"')],
  [
    'empty text',
    one({ text: '', callback_data: 'b' }),
    'inline keyboard button text must be non-empty',
  ],
  [
    'web_app over http',
    one({ text: 'a', web_app: { url: 'http://penny.kg/app' } }),
    webAppUrl('http://penny.kg/app', 'Only HTTPS links are allowed'),
  ],
  [
    'web_app on localhost',
    one({ text: 'a', web_app: { url: 'https://localhost/app' } }),
    webAppUrl('https://localhost/app', 'Wrong HTTP URL'),
  ],
  [
    'url over ftp',
    one({ text: 'a', url: 'ftp://penny.kg' }),
    "inline keyboard button URL 'ftp://penny.kg' is invalid: Unsupported URL protocol",
  ],
  [
    'url without a domain',
    one({ text: 'a', url: 'penny' }),
    "inline keyboard button URL 'penny' is invalid: Wrong HTTP URL",
  ],
  [
    'buttons not in rows',
    { inline_keyboard: [{ text: 'a', callback_data: 'b' }] },
    'field "inline_keyboard" of the InlineKeyboardMarkup must be an Array of Arrays',
  ],
  [
    'inline_keyboard not an array',
    { inline_keyboard: 'a' },
    'field "inline_keyboard" must be of type Array',
  ],
  ['not an object', [1], 'object expected as reply markup'],
  ['not JSON', '{"inline_keyboard":', "can't parse reply keyboard markup JSON object"],
  [
    'a bad URL before long data',
    {
      inline_keyboard: [
        [
          { text: 'a', callback_data: 'x'.repeat(65) },
          { text: 'b', web_app: { url: 'http://penny.kg' } },
        ],
      ],
    },
    webAppUrl('http://penny.kg', 'Only HTTPS links are allowed'),
  ],
]

export const webAppMenu = {
  type: 'web_app',
  text: 'Auctions',
  web_app: { url: 'https://penny.kg/app' },
}

/** [menu_button, description] */
export const refusedMenuButtons: [unknown, string][] = [
  [
    { ...webAppMenu, web_app: { url: 'http://penny.kg/app' } },
    "menu button Web App URL 'http://penny.kg/app' is invalid: Only HTTPS links are allowed",
  ],
  [
    { ...webAppMenu, web_app: { url: 'https://localhost/app' } },
    "menu button Web App URL 'https://localhost/app' is invalid: Wrong HTTP URL",
  ],
  [{ ...webAppMenu, text: '' }, 'menu button text must be non-empty'],
  [{ type: 'web_app', text: 'a' }, 'can\'t parse menu button: Can\'t find field "web_app"'],
  [{ type: 'menu' }, "can't parse menu button: MenuButton has unsupported type"],
  [{ text: 'a' }, 'can\'t parse menu button: Can\'t find field "type"'],
  ['"web_app"', "can't parse menu button: MenuButton must be an Object"],
  ['{"type":', "can't parse menu button JSON object"],
]
