import { afterAll, describe, expect, test } from 'vitest'
import { TelegramFake, type TgUser } from '../support/telegram-fake.ts'
import {
  badRequestAnswer as refusal,
  callBotApi,
  startWebhook,
} from '../support/telegram-fake-client.ts'
import {
  refusedMarkups,
  refusedMenuButtons,
  webAppMenu as webApp,
} from '../support/telegram-fake-refusals.ts'

// The fake Telegram itself (tests/support/telegram-fake.ts), over HTTP as the bot speaks to it:
// what it keeps of the bot's messages, the inline keyboards, edits, callback queries and menu
// button it takes, and each refusal in Telegram's words.

const hook = await startWebhook()
const { received, statuses } = hook
const fake = await new TelegramFake().start()
afterAll(async () => {
  await fake.stop()
  await hook.close()
})
const call = (method: string, params: Record<string, unknown> = {}, form = false) =>
  callBotApi(fake, method, params, form)
expect(await call('setWebhook', { url: hook.url, secret_token: 'hook-1' })).toEqual({
  status: 200,
  body: { ok: true, result: true },
})

let nextId = 5_100_000
/** A person who wrote to the bot, so that the bot can write to them. */
async function person(): Promise<TgUser> {
  const from = { id: nextId++, first_name: 'Aida', language_code: 'ru' }
  expect((await fake.text(from, 'hi')).status).toBe(200)
  return from
}
const bidKeyboard = { inline_keyboard: [[{ text: 'Bid', callback_data: 'bid:1' }]] }
async function send(chatId: number, text: string, reply_markup?: unknown) {
  const { body } = await call('sendMessage', { chat_id: chatId, text, reply_markup })
  return (body.result as { message_id: number }).message_id
}

describe('sendMessage', () => {
  test('the sent Message is kept, with its inline keyboard, and answered as Telegram does', async () => {
    const p = await person()
    const markup = {
      inline_keyboard: [
        [{ text: 'Bid', callback_data: 'bid:1' }],
        [{ text: 'Open', url: 'https://penny.kg/lots/1' }],
      ],
    }
    const { status, body } = await call('sendMessage', { chat_id: p.id, text: 'Lot 1' })
    expect(status).toBe(200)
    expect(body.result).not.toHaveProperty('reply_markup')
    const sent = await call('sendMessage', { chat_id: p.id, text: 'Lot 1', reply_markup: markup })
    const bot = { id: fake.botId, is_bot: true, first_name: 'Penny test', username: fake.username }
    const chat = { id: p.id, type: 'private', first_name: 'Aida' }
    const [date, message_id] = [expect.any(Number), expect.any(Number)]
    expect(sent.body.result).toEqual({
      message_id,
      from: bot,
      chat,
      date,
      text: 'Lot 1',
      reply_markup: markup,
    })
    const id = (sent.body.result as { message_id: number }).message_id
    expect(fake.sent.at(-1)).toEqual({
      chatId: p.id,
      messageId: id,
      text: 'Lot 1',
      replyMarkup: markup,
    })
    expect(fake.message(p.id, id)).toEqual(sent.body.result)
    expect(fake.message(p.id + 1, id)).toBeUndefined()
  })

  test('only an inline keyboard is attached to the Message; a form sends it as JSON text', async () => {
    const p = await person()
    const keyboard = { keyboard: [[{ text: 'Share', request_contact: true }]] }
    const reply = JSON.stringify(keyboard)
    const form = await call(
      'sendMessage',
      { chat_id: p.id, text: 'Phone?', reply_markup: reply },
      true,
    )
    expect(form.body.result).not.toHaveProperty('reply_markup')
    expect(fake.sent.at(-1)?.replyMarkup).toEqual(keyboard)
    const inline = JSON.stringify(bidKeyboard)
    const withButtons = await call(
      'sendMessage',
      { chat_id: p.id, text: 'Lot', reply_markup: inline },
      true,
    )
    expect(withButtons.body.result).toMatchObject({ reply_markup: bidKeyboard })
    const empty = await call('sendMessage', {
      chat_id: p.id,
      text: 'x',
      reply_markup: { inline_keyboard: [[]] },
    })
    expect(empty.body.result).not.toHaveProperty('reply_markup')
  })
})

describe('inline keyboards', () => {
  test.each(refusedMarkups)(
    'refused by sendMessage and editMessageText: %s',
    async (_, markup, why) => {
      const p = await person()
      const id = await send(p.id, 'Lot')
      const [sent, edits] = [fake.sent.length, fake.edits.length]
      expect(
        await call('sendMessage', { chat_id: p.id, text: 'Lot', reply_markup: markup }),
      ).toEqual(refusal(why))
      const edit = { chat_id: p.id, message_id: id, text: 'Lot 2', reply_markup: markup }
      expect(await call('editMessageText', edit)).toEqual(refusal(why))
      expect([fake.sent.length, fake.edits.length]).toEqual([sent, edits])
    },
  )

  test('taken: 64 bytes of data, http(s) and tg:// links, an HTTPS Web App', async () => {
    const p = await person()
    const buttons = [
      { text: 'a', callback_data: 'x'.repeat(64) },
      { text: 'b', callback_data: 'ж'.repeat(32) },
      { text: 'c', url: 'http://penny.kg/lots' },
      { text: 'd', url: 'tg://resolve?domain=penny_test_bot' },
      { text: 'e', web_app: { url: 'https://penny.kg/app' } },
    ]
    const { status, body } = await call('sendMessage', {
      chat_id: p.id,
      text: 'Lot',
      reply_markup: { inline_keyboard: [buttons] },
    })
    expect(status).toBe(200)
    expect(body.result).toMatchObject({ reply_markup: { inline_keyboard: [buttons] } })
  })
})

describe('callback queries', () => {
  test('a press is a callback_query update with the message as Telegram keeps it', async () => {
    const p = await person()
    const messageId = await send(p.id, 'Lot 1', bidKeyboard)
    const first = await fake.callbackQuery(p, { chatId: p.id, messageId }, 'bid:1')
    const second = await fake.callbackQuery(p, { chatId: p.id, messageId }, 'not on any button')
    expect(first.status).toBe(200)
    expect(first.update).toEqual({
      update_id: expect.any(Number),
      callback_query: {
        id: first.queryId,
        from: { is_bot: false, ...p },
        message: fake.message(p.id, messageId),
        chat_instance: expect.stringMatching(/^-?\d+$/),
        data: 'bid:1',
      },
    })
    expect(received.at(-2)).toEqual({ secret: 'hook-1', update: first.update })
    expect(second.queryId).not.toBe(first.queryId)
    const instance = (r: typeof first) =>
      (r.update.callback_query as { chat_instance: string }).chat_instance
    expect(instance(second)).toBe(instance(first))
    expect(second.update.update_id).toBe(first.update.update_id + 1)
    await expect(
      fake.callbackQuery(p, { chatId: p.id, messageId: messageId + 999 }, 'x'),
    ).rejects.toThrow()
  })

  test('an update the webhook did not take is sent again, the very same', async () => {
    const p = await person()
    const messageId = await send(p.id, 'Lot 2', bidKeyboard)
    statuses.push(500)
    const first = await fake.callbackQuery(p, { chatId: p.id, messageId }, 'bid:1')
    expect(first.status).toBe(500)
    expect(fake.updates.at(-1)).toEqual(first.update)
    const again = await fake.deliverAgain(first.update)
    expect(again.status).toBe(200)
    expect(received.slice(-2).map((r) => r.update)).toEqual([first.update, first.update])
  })
})

describe('answerCallbackQuery', () => {
  const invalid = 'query is too old and response timeout expired or query ID is invalid'
  async function query() {
    const p = await person()
    const messageId = await send(p.id, 'Lot', bidKeyboard)
    return (await fake.callbackQuery(p, { chatId: p.id, messageId }, 'bid:1')).queryId
  }

  test('an answer is taken once; ids never issued, answered or too old are refused', async () => {
    const id = await query()
    const answer = { callback_query_id: id, text: 'Bid placed', show_alert: true }
    expect(await call('answerCallbackQuery', answer)).toEqual({
      status: 200,
      body: { ok: true, result: true },
    })
    expect(fake.answers.at(-1)).toEqual({ queryId: id, text: 'Bid placed', showAlert: true })
    expect(await call('answerCallbackQuery', { callback_query_id: id })).toEqual(refusal(invalid))
    expect(await call('answerCallbackQuery', { callback_query_id: '12345' })).toEqual(
      refusal(invalid),
    )
    expect(await call('answerCallbackQuery', {})).toEqual(refusal(invalid))
    const late = await query()
    fake.expireQuery(late)
    expect(await call('answerCallbackQuery', { callback_query_id: late })).toEqual(refusal(invalid))
  })

  test('a text over 200 characters is refused, and the query can still be answered', async () => {
    const id = await query()
    const long = { callback_query_id: id, text: 'я'.repeat(201) }
    expect(await call('answerCallbackQuery', long)).toEqual(refusal('MESSAGE_TOO_LONG'))
    expect(
      (await call('answerCallbackQuery', { callback_query_id: id, text: 'я'.repeat(200) })).status,
    ).toBe(200)
    const plain = await query()
    await call('answerCallbackQuery', { callback_query_id: plain }, true)
    expect(fake.answers.at(-1)).toEqual({ queryId: plain })
  })
})

describe('editMessageText', () => {
  const notModified =
    'message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message'

  test('an edit changes the kept message and answers the edited Message', async () => {
    const p = await person()
    const message_id = await send(p.id, 'Lot 3', bidKeyboard)
    const sold = { inline_keyboard: [[{ text: 'Sold', url: 'https://penny.kg/lots/3' }]] }
    const { status, body } = await call('editMessageText', {
      chat_id: p.id,
      message_id,
      text: 'Lot 3: sold',
      reply_markup: sold,
    })
    expect(status).toBe(200)
    expect(body.result).toMatchObject({
      message_id,
      text: 'Lot 3: sold',
      reply_markup: sold,
      edit_date: expect.any(Number),
    })
    expect(fake.message(p.id, message_id)).toEqual(body.result)
    expect(fake.edits.at(-1)).toEqual({
      chatId: p.id,
      messageId: message_id,
      text: 'Lot 3: sold',
      replyMarkup: sold,
    })
    // Without reply_markup the message keeps no keyboard.
    const bare = await call('editMessageText', { chat_id: p.id, message_id, text: 'Lot 3: sold' })
    expect(bare.status).toBe(200)
    expect(fake.message(p.id, message_id)).not.toHaveProperty('reply_markup')
  })

  test('the same text and keyboard again is refused as not modified', async () => {
    const p = await person()
    const message_id = await send(p.id, 'Lot 4', bidKeyboard)
    const same = { chat_id: p.id, message_id, text: 'Lot 4', reply_markup: bidKeyboard }
    expect(await call('editMessageText', same)).toEqual(refusal(notModified))
    const other = { inline_keyboard: [[{ text: 'Bid', callback_data: 'bid:2' }]] }
    expect((await call('editMessageText', { ...same, reply_markup: other })).status).toBe(200)
    expect(
      (await call('editMessageText', { chat_id: p.id, message_id, text: 'Lot 4' })).status,
    ).toBe(200)
    expect(await call('editMessageText', { chat_id: p.id, message_id, text: 'Lot 4' })).toEqual(
      refusal(notModified),
    )
  })

  test('refusals: no such message, not the bot’s, bad text, missing ids, not an inline keyboard', async () => {
    const p = await person()
    const other = await person()
    const message_id = await send(p.id, 'Lot 5')
    const edit = (params: Record<string, unknown>) =>
      call('editMessageText', { chat_id: p.id, message_id, text: 'x', ...params })
    expect(await edit({ message_id: message_id + 999 })).toEqual(
      refusal('message to edit not found'),
    )
    expect(await edit({ chat_id: other.id })).toEqual(refusal('message to edit not found'))
    expect(await edit({ chat_id: 42 })).toEqual(refusal('chat not found'))
    const theirs = (fake.updates.at(-1)?.message as { message_id: number }).message_id
    expect(await edit({ chat_id: other.id, message_id: theirs })).toEqual(
      refusal("message can't be edited"),
    )
    expect(await edit({ text: ' ' })).toEqual(refusal('message text is empty'))
    expect(await edit({ text: 'x'.repeat(4097) })).toEqual(refusal('MESSAGE_TOO_LONG'))
    expect(await edit({ chat_id: undefined })).toEqual(refusal('chat_id is empty'))
    expect(await edit({ chat_id: undefined, message_id: undefined })).toEqual(
      refusal('message identifier is not specified'),
    )
    expect(
      await edit({ chat_id: undefined, message_id: undefined, inline_message_id: 'AAA' }),
    ).toEqual(refusal('invalid inline message identifier specified'))
    expect(await edit({ reply_markup: { remove_keyboard: true } })).toEqual(
      refusal('inline keyboard expected'),
    )
    expect(fake.message(p.id, message_id)?.text).toBe('Lot 5')
    expect((await edit({ text: 'x'.repeat(4096) })).status).toBe(200)
  })
})

describe('429 Too Many Requests', () => {
  const tooMany = (n: number) => ({
    status: 429,
    body: {
      ok: false,
      error_code: 429,
      description: `Too Many Requests: retry after ${n}`,
      parameters: { retry_after: n },
    },
  })

  test('any method can be held back once; the call is then taken', async () => {
    const p = await person()
    const messageId = await send(p.id, 'Lot 6', bidKeyboard)
    const { queryId } = await fake.callbackQuery(p, { chatId: p.id, messageId }, 'bid:1')
    fake.tooManyRequests(2, 'answerCallbackQuery')
    fake.tooManyRequests(1, 'editMessageText')
    fake.tooManyRequests(4, 'getMe')
    expect(await call('answerCallbackQuery', { callback_query_id: queryId })).toEqual(tooMany(2))
    expect((await call('answerCallbackQuery', { callback_query_id: queryId })).status).toBe(200)
    const edit = { chat_id: p.id, message_id: messageId, text: 'Lot 6: sold' }
    expect(await call('editMessageText', edit)).toEqual(tooMany(1))
    expect(fake.message(p.id, messageId)?.text).toBe('Lot 6')
    expect((await call('editMessageText', edit)).status).toBe(200)
    expect(await call('getMe')).toEqual(tooMany(4))
    expect((await call('getMe')).status).toBe(200)
  })

  test('without a method it is sendMessage, after its parameters are checked', async () => {
    const p = await person()
    fake.tooManyRequests(3)
    expect((await call('getMe')).status).toBe(200)
    expect(await call('sendMessage', { chat_id: p.id, text: '' })).toEqual(
      refusal('message text is empty'),
    )
    expect(await call('sendMessage', { chat_id: p.id, text: 'Lot' })).toEqual(tooMany(3))
    expect((await call('sendMessage', { chat_id: p.id, text: 'Lot' })).status).toBe(200)
  })
})

describe('the menu button', () => {
  test('the default one, then what setChatMenuButton sets; refusals keep it', async () => {
    expect(await call('getChatMenuButton')).toEqual({
      status: 200,
      body: { ok: true, result: { type: 'default' } },
    })
    expect((await call('setChatMenuButton', { menu_button: webApp })).status).toBe(200)
    expect(fake.menuButton).toEqual(webApp)
    for (const [menu_button, why] of refusedMenuButtons)
      expect(await call('setChatMenuButton', { menu_button }), why).toEqual(refusal(why))
    expect((await call('getChatMenuButton')).body.result).toEqual(webApp)
    await call('setChatMenuButton', { menu_button: JSON.stringify({ type: 'commands' }) }, true)
    expect((await call('getChatMenuButton')).body.result).toEqual({ type: 'commands' })
    await call('setChatMenuButton')
    expect(fake.menuButton).toEqual({ type: 'default' })
  })

  test('a chat can have its own; an unknown chat is refused', async () => {
    const p = await person()
    expect((await call('setChatMenuButton', { chat_id: p.id, menu_button: webApp })).status).toBe(
      200,
    )
    expect((await call('getChatMenuButton', { chat_id: p.id })).body.result).toEqual(webApp)
    expect((await call('getChatMenuButton')).body.result).toEqual({ type: 'default' })
    expect(await call('setChatMenuButton', { chat_id: 42, menu_button: webApp })).toEqual(
      refusal('chat not found'),
    )
  })
})
