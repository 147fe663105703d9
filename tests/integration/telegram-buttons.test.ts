import { afterAll, expect, test } from 'vitest'
import { startTelegramSite, tgUser } from '../support/telegram-site.ts'
import type { TgUser } from '../support/telegram-fake.ts'

// Bidding from Telegram (docs/rules.md#telegram-buttons) against the fake Telegram
// (tests/support/telegram-fake.ts, which answers as the Bot API's pages say): an alert's buttons,
// a tap answered with answerCallbackQuery and the alert edited in place, a repeated delivery of
// the same tap placing one bid, forged, stale and other people's buttons refused, /bid and
// /watchlist's buttons.

const site = await startTelegramSite()
const { fake, prisma, engine } = site
afterAll(() => site.stop())

const { telegramChannel } = await import('~/services/alerts/telegram-channel.server.ts')
const { buttonData } = await import('~/services/telegram/callback-data.server.ts')
const { getTelegramConfig } = await import('~/services/telegram/config.server.ts')

let n = 0
/** An auction in the engine starting `inMs` from now. */
async function auctionIn(inMs: number) {
  const stamp = `${Date.now().toString(36)}${n++}`
  const auction = await prisma.auction.create({
    data: {
      displayId: `PA-B${stamp}`.toUpperCase(),
      slug: `tg-buttons-${stamp}`,
      title: `Лот ${stamp}`,
      retailPrice: 100_000,
      startTime: new Date(Date.now() + inMs),
    },
  })
  await engine.loadAuction(auction.id)
  return auction
}

/** A live auction (started by the engine's own sweep). */
async function liveAuction() {
  const auction = await auctionIn(-1_000)
  await engine.sweep()
  expect((await engine.getState(auction.id))?.status).toBe('live')
  return auction
}

const upcomingAuction = () => auctionIn(3_600_000)

/** A person with a linked chat and bids to spend. */
async function linkedPerson(language = 'ru') {
  const user = await site.newUser()
  const from = tgUser(language)
  await site.linked(user.id, from)
  return { user, from }
}

type Keyboard = {
  inline_keyboard: { text: string; callback_data?: string; web_app?: { url: string } }[][]
}

/** Sends `kind`'s alert about the auction through the channel; the message the fake keeps. */
async function alert(
  userId: string,
  from: TgUser,
  kind: 'outbid' | 'startsSoon',
  auctionId: string,
) {
  const outcome = await telegramChannel.send(userId, {
    kind,
    language: 'ru',
    title: 'Вашу ставку перебили',
    body: 'Сделайте ставку, пока идёт таймер.',
    url: 'https://penny.example.kg/auction/lot',
    auctionId,
  })
  expect(outcome).toEqual({ status: 'sent' })
  const sent = fake.sentTo(from.id).at(-1)!
  return { sent, keyboard: sent.replyMarkup as Keyboard }
}

test('an outbid alert carries Bid and Open; a tap delivered twice places one bid, answers once and shows the price', async () => {
  const { user, from } = await linkedPerson()
  const auction = await liveAuction()
  const { sent, keyboard } = await alert(user.id, from, 'outbid', auction.id)
  const [[bid], [open]] = keyboard.inline_keyboard as [
    Keyboard['inline_keyboard'][0],
    Keyboard['inline_keyboard'][0],
  ]
  expect(bid!.text).toBe('Ставка (1 ставка)')
  expect(Buffer.byteLength(bid!.callback_data!)).toBeLessThanOrEqual(64)
  expect(open).toEqual({
    text: 'Открыть',
    web_app: { url: 'https://penny.example.kg/telegram-app?to=%2Fauction%2Flot' },
  })
  const before = (await engine.getBalance(user.id))!

  const tap = await fake.callbackQuery(
    from,
    { chatId: from.id, messageId: sent.messageId },
    bid!.callback_data!,
  )
  expect(tap.status).toBe(200)
  // Telegram did not get a 2xx in time, say: the same update again.
  const repeat = await fake.deliverAgain(tap.update)
  expect(repeat.status).toBe(200)

  expect(await engine.getBalance(user.id)).toBe(before - 1)
  const state = await engine.getState(auction.id)
  expect(state?.bids).toBe(1)
  expect(state?.lastBidder).toBe(user.id)
  const answers = fake.answers.filter((a) => a.queryId === tap.queryId)
  expect(answers).toHaveLength(1)
  expect(answers[0]!.text).toBe('Ставка принята: 0,01 сом, вы лидируете.')
  // The alert now says the price and the time left, its buttons kept.
  const edited = fake.message(from.id, sent.messageId)!
  expect(edited.text).toMatch(/\n\n⏱ Сейчас 0,01 сом, осталось (9|10) с$/)
  expect(edited.reply_markup).toEqual(sent.replyMarkup)
})

test('a tap refused by the rules says why in the person’s language and places nothing', async () => {
  const { user, from } = await linkedPerson('en')
  const auction = await liveAuction()
  const { sent, keyboard } = await alert(user.id, from, 'outbid', auction.id)
  const data = keyboard.inline_keyboard[0]![0]!.callback_data!
  const first = await fake.callbackQuery(from, { chatId: from.id, messageId: sent.messageId }, data)
  expect(fake.answers.find((a) => a.queryId === first.queryId)?.text).toBe(
    'Bid placed: 0,01 сом, you lead.',
  )
  // Leading already: the same refusal as the site's.
  const second = await fake.callbackQuery(
    from,
    { chatId: from.id, messageId: sent.messageId },
    data,
  )
  expect(fake.answers.find((a) => a.queryId === second.queryId)?.text).toBe(
    'Yours is already the last bid — wait for someone else to bid',
  )
  expect((await engine.getState(auction.id))?.bids).toBe(1)
})

test('forged, stale and other people’s buttons are refused', async () => {
  const { user, from } = await linkedPerson()
  const other = await linkedPerson()
  const auction = await liveAuction()
  const { sent, keyboard } = await alert(user.id, from, 'outbid', auction.id)
  const data = keyboard.inline_keyboard[0]![0]!.callback_data!
  const config = getTelegramConfig()!
  const tries: [TgUser, string, string][] = [
    // One character of the signature changed.
    [
      from,
      data.slice(0, -1) + (data.endsWith('A') ? 'B' : 'A'),
      'Эта кнопка не подходит для вашего аккаунта.',
    ],
    // Another auction put in the data.
    [
      from,
      data.replace(auction.id, (await liveAuction()).id),
      'Эта кнопка не подходит для вашего аккаунта.',
    ],
    // Made for this person two days ago.
    [
      from,
      buttonData(config, 'b', auction.id, user.id, Date.now() - 2 * 86_400_000)!,
      'Кнопка устарела: откройте аукцион заново.',
    ],
    // This person's button, tapped by someone else.
    [other.from, data, 'Эта кнопка не подходит для вашего аккаунта.'],
    // Not a button of this site at all.
    [from, 'x', 'Эта кнопка не подходит для вашего аккаунта.'],
  ]
  for (const [tapper, tapped, answer] of tries) {
    const tap = await fake.callbackQuery(
      tapper,
      { chatId: from.id, messageId: sent.messageId },
      tapped,
    )
    expect(tap.status).toBe(200)
    expect(fake.answers.find((a) => a.queryId === tap.queryId)?.text).toBe(answer)
  }
  expect((await engine.getState(auction.id))?.bids).toBe(0)
  // A chat linked to nobody.
  const stranger = tgUser('ru')
  await fake.text(stranger, '/help')
  const tap = await fake.callbackQuery(
    stranger,
    { chatId: from.id, messageId: sent.messageId },
    data,
  )
  expect(fake.answers.find((a) => a.queryId === tap.queryId)?.text).toContain('не привязан')
})

test('a starts-soon alert prebids and stops watching', async () => {
  const { user, from } = await linkedPerson()
  const auction = await upcomingAuction()
  await prisma.watch.create({ data: { auctionId: auction.id, userId: user.id } })
  const { sent, keyboard } = await alert(user.id, from, 'startsSoon', auction.id)
  const [prebid, unwatch] = keyboard.inline_keyboard[0]!
  expect([prebid!.text, unwatch!.text]).toEqual(['Предварительная ставка', 'Не следить'])
  const at = { chatId: from.id, messageId: sent.messageId }
  const p = await fake.callbackQuery(from, at, prebid!.callback_data!)
  expect(fake.answers.find((a) => a.queryId === p.queryId)?.text).toContain(
    'Предварительная ставка принята',
  )
  expect(await engine.hasPrebid(auction.id, user.id)).toBe(true)
  const u = await fake.callbackQuery(from, at, unwatch!.callback_data!)
  expect(fake.answers.find((a) => a.queryId === u.queryId)?.text).toBeTruthy()
  const row = await prisma.watch.findUniqueOrThrow({
    where: { userId_auctionId: { userId: user.id, auctionId: auction.id } },
  })
  expect(row.watching).toBe(false)
  expect(fake.message(from.id, sent.messageId)!.text).toContain('⏱ Ещё не начался')
})

test('a 429 on the answer is waited out as Telegram asks', async () => {
  const { user, from } = await linkedPerson()
  const auction = await liveAuction()
  const { sent, keyboard } = await alert(user.id, from, 'outbid', auction.id)
  fake.tooManyRequests(1, 'answerCallbackQuery')
  const tap = await fake.callbackQuery(
    from,
    { chatId: from.id, messageId: sent.messageId },
    keyboard.inline_keyboard[0]![0]!.callback_data!,
  )
  expect(tap.status).toBe(200)
  expect(fake.answers.find((a) => a.queryId === tap.queryId)?.text).toContain('Ставка принята')
  expect((await engine.getState(auction.id))?.bids).toBe(1)
})

test('/bid <lot> bids once even when Telegram delivers the message twice; /watchlist has buttons', async () => {
  const { user, from } = await linkedPerson()
  const auction = await liveAuction()
  const first = await fake.text(from, `/bid ${auction.displayId.toLowerCase()}`)
  expect(first.status).toBe(200)
  await fake.deliverAgain(first.update)
  expect((await engine.getState(auction.id))?.bids).toBe(1)
  // The repeat is answered as the first delivery was (that answer may not have reached the chat).
  const replies = fake.sentTo(from.id).filter((m) => m.text.startsWith(`${auction.title}:`))
  expect(replies.length).toBeGreaterThan(0)
  for (const reply of replies) expect(reply.text).toContain('Ставка принята: 0,01 сом')
  await fake.text(from, '/bid')
  expect(fake.sentTo(from.id).at(-1)!.text).toBe('Напишите номер лота: /bid PA-000042')
  await fake.text(from, '/bid NOPE-1')
  expect(fake.sentTo(from.id).at(-1)!.text).toBe('Лот NOPE-1 не найден.')

  await prisma.watch.create({ data: { auctionId: auction.id, userId: user.id } })
  await fake.text(from, '/watchlist')
  const list = fake.sentTo(from.id).at(-1)!
  expect(list.text).toContain(`1. ${auction.title} (идёт)`)
  const button = (list.replyMarkup as Keyboard).inline_keyboard[0]![0]!
  expect(button.text).toBe('1. Ставка (1 ставка)')
})
