import { afterAll, expect, test } from 'vitest'
import { startTelegramSite, tgUser, WEBHOOK_SECRET } from '../support/telegram-site.ts'

// The bot against a fake Telegram (tests/support/telegram-fake.ts), through the app's webhook
// route: linking with the profile's one-time link, the commands in the person's language,
// unlinking with /stop and from the profile (docs/rules.md#telegram).

const site = await startTelegramSite()
const { fake, prisma } = site
afterAll(() => site.stop())

const { createLinkToken } = await import('~/models/telegram-link.server.ts')
const { FREE_BIDS } = await import('~/models/user.server.ts')

const lastTo = (chatId: number) => fake.sentTo(chatId).at(-1)?.text ?? ''

test('the webhook refuses a call without the secret token, or with another, before reading it', async () => {
  const update = JSON.stringify({ update_id: 1, message: { text: '/help' } })
  const calls = fake.calls.length
  const wrong: Record<string, string>[] = [
    {},
    { 'X-Telegram-Bot-Api-Secret-Token': 'wrong-secret-0123456789' },
  ]
  for (const headers of wrong) {
    const response = await fetch(site.webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: update,
    })
    expect(response.status).toBe(401)
    expect(await response.json()).toEqual({ error: expect.any(String) })
  }
  const malformed = await fetch(site.webhookUrl, {
    method: 'POST',
    headers: { 'X-Telegram-Bot-Api-Secret-Token': WEBHOOK_SECRET },
    body: 'not json',
  })
  expect(malformed.status).toBe(400)
  expect(fake.calls.length).toBe(calls)
  expect(fake.webhook?.secret).toBe(WEBHOOK_SECRET)
})

test('the profile link links the chat once, in the person’s language', async () => {
  const user = await site.newUser()
  const token = await site.linkToken(user.id)
  const person = tgUser('en')
  expect((await fake.text(person, `/start ${token}`)).status).toBe(200)
  expect(lastTo(person.id)).toContain(`linked to the account ${user.username}`)
  const keyboard = fake.sentTo(person.id).at(-1)?.replyMarkup as {
    keyboard: { text: string; request_contact?: boolean }[][]
  }
  expect(keyboard.keyboard[0]![0]).toEqual({ text: 'Share my phone number', request_contact: true })
  const link = await prisma.telegramLink.findUniqueOrThrow({ where: { userId: user.id } })
  expect(Number(link.chatId)).toBe(person.id)

  // Used: another chat opening the same link is refused, and the first stays linked.
  const other = tgUser('ky')
  await fake.text(other, `/start ${token}`)
  expect(lastTo(other.id)).toBe('Бул шилтеме колдонулуп бүткөн. Сайттагы профилден жаңысын алыңыз.')
  expect(await prisma.telegramLink.count({ where: { userId: user.id } })).toBe(1)
  // Only the hash of the token is kept.
  expect(await prisma.telegramLinkToken.count({ where: { hash: token } })).toBe(0)
})

test('an expired or unknown link is refused', async () => {
  const user = await site.newUser()
  const expired = await createLinkToken(user.id, new Date(Date.now() - 16 * 60_000))
  const person = tgUser('ru')
  await fake.text(person, `/start ${expired}`)
  expect(lastTo(person.id)).toContain('Ссылка устарела')
  await fake.text(person, '/start made-up-token')
  expect(lastTo(person.id)).toContain('Ссылка не подходит')
  expect(await prisma.telegramLink.count({ where: { userId: user.id } })).toBe(0)
})

test('a chat linked to one person is not taken over by another’s link', async () => {
  const [first, second] = [await site.newUser(), await site.newUser()]
  const person = tgUser('en')
  await site.linked(first.id, person)
  await fake.text(person, `/start ${await site.linkToken(second.id)}`)
  expect(lastTo(person.id)).toContain('already linked to another account')
  const link = await prisma.telegramLink.findUniqueOrThrow({ where: { chatId: BigInt(person.id) } })
  expect(link.userId).toBe(first.id)
})

test('commands answer in the person’s language, and explain linking to a chat not linked', async () => {
  const stranger = tgUser('ka')
  await fake.text(stranger, '/balance')
  expect(lastTo(stranger.id)).toContain('ეს ჩატი არ არის დაკავშირებული')
  const unknownLanguage = tgUser('de')
  await fake.text(unknownLanguage, '/watchlist')
  expect(lastTo(unknownLanguage.id)).toContain('Этот чат не привязан')

  const user = await site.newUser()
  const person = tgUser('ka')
  await site.linked(user.id, person)
  await fake.text(person, '/balance')
  expect(lastTo(person.id)).toBe(`ფსონების ბალანსი: ${FREE_BIDS}.`)
  await fake.text(person, '/help')
  expect(lastTo(person.id)).toContain('/watchlist')
  await fake.text(person, '/watchlist')
  expect(lastTo(person.id)).toBe(
    'ახლა არ არის მიმდინარე ან მომავალი აუქციონები, რომლებსაც ადევნებთ თვალს.',
  )
})

test('/watchlist lists the live and upcoming auctions the person watches or prebid on', async () => {
  const user = await site.newUser()
  const person = tgUser('en')
  await site.linked(user.id, person)
  const auction = (status: 'live' | 'upcoming' | 'finished', n: number) =>
    prisma.auction.create({
      data: {
        displayId: `PA-TG${Date.now()}${n}`,
        slug: `tg-${Date.now()}-${n}`,
        title: `Lot ${status} ${n}`,
        retailPrice: 100_000,
        startTime: new Date(Date.now() + 3_600_000),
        status,
      },
    })
  const [upcoming, live, finished, untouched] = await Promise.all([
    auction('upcoming', 1),
    auction('live', 2),
    auction('finished', 3),
    auction('live', 4),
  ])
  await prisma.prebid.create({ data: { auctionId: upcoming.id, userId: user.id } })
  for (const { id } of [live, finished])
    await prisma.watch.create({ data: { auctionId: id, userId: user.id } })
  // A bid alone is not watching.
  await prisma.bid.create({ data: { auctionId: untouched.id, userId: user.id, amount: 10 } })
  await fake.text(person, '/watchlist')
  const answer = lastTo(person.id)
  expect(answer).toContain(`${live.title} (live)`)
  expect(answer).toContain(`${upcoming.title} (upcoming)`)
  expect(answer).not.toContain(finished.title)
  expect(answer).not.toContain(untouched.title)
})

test('/stop unlinks the chat; the profile unlinks it too', async () => {
  const user = await site.newUser()
  const person = tgUser('en')
  await site.linked(user.id, person)
  await fake.text(person, '/stop')
  expect(lastTo(person.id)).toContain('Chat unlinked')
  expect(await prisma.telegramLink.count({ where: { userId: user.id } })).toBe(0)
  await fake.text(person, '/balance')
  expect(lastTo(person.id)).toContain('not linked')

  await site.linked(user.id, person)
  expect(await prisma.telegramLink.count({ where: { userId: user.id } })).toBe(1)
  const response = await site.profilePost(user.id, 'unlink')
  expect(response.status).toBe(302)
  expect(response.headers.get('location')).toBe('/profile')
  expect(await prisma.telegramLink.count({ where: { userId: user.id } })).toBe(0)
  expect((await site.profilePost(user.id, 'nonsense')).status).toBe(400)
})

test('an answer Telegram refuses is not a reason to send the update again', async () => {
  const person = tgUser('en')
  fake.block(person.id)
  const before = fake.sent.length
  expect((await fake.text(person, '/help')).status).toBe(200)
  expect(fake.sent.length).toBe(before)
})

test('an answer Telegram holds back with 429 is sent again after its retry_after, not dropped', async () => {
  const person = tgUser('en')
  fake.tooManyRequests(1)
  const asked = Date.now()
  expect((await fake.text(person, '/help')).status).toBe(200)
  // grammY's auto-retry waited the second Telegram asked for, then sent the answer.
  expect(Date.now() - asked).toBeGreaterThanOrEqual(1_000)
  expect(lastTo(person.id)).toContain('This chat is not linked')
})

test('the commands menu is registered in each of the four languages, and for every other one', async () => {
  await fake.text(tgUser('ru'), '/help')
  const keys = ['ru', 'en', 'ka', 'ky', ''].map((code) => `all_private_chats|${code}`)
  // Set beside the first update, not in its way.
  const until = Date.now() + 10_000
  while (!keys.every((key) => fake.commands.has(key)) && Date.now() < until)
    await new Promise((resolve) => setTimeout(resolve, 50))
  const menu = (code: string) => fake.commands.get(`all_private_chats|${code}`)
  const names = ['bid', 'watchlist', 'balance', 'help', 'stop']
  for (const code of ['ru', 'en', 'ka', 'ky', ''])
    expect(
      menu(code)?.map((entry) => entry.command),
      code,
    ).toEqual(names)
  expect(menu('en')?.find((entry) => entry.command === 'balance')?.description).toBe(
    'Your bid balance',
  )
  expect(menu('ky')?.find((entry) => entry.command === 'stop')?.description).toBe(
    'Бул чатты ажыратуу',
  )
  // Any other language gets the site's default one, as the bot answers it.
  expect(menu('')).toEqual(menu('ru'))
})
