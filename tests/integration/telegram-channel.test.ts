import { afterAll, expect, test } from 'vitest'
import { startTelegramSite, tgUser } from '../support/telegram-site.ts'

// Alerts through the bot (app/services/alerts/telegram-channel.server.ts) against a fake
// Telegram: a message to the linked chat with the link; Telegram's limits kept in Redis; a 429's
// retry_after honoured; a chat that blocked the bot unlinked.

const site = await startTelegramSite()
const { fake, prisma } = site
afterAll(() => site.stop())

const { telegramChannel } = await import('~/services/alerts/telegram-channel.server.ts')
const { holdChat, takeSendSlot, PER_SECOND } =
  await import('~/services/telegram/send-limits.server.ts')

const message = {
  kind: 'outbid' as const,
  language: 'en',
  title: 'You were outbid',
  body: 'iPhone 15: someone bid after you.',
  url: 'https://auction.example.kg/auction/iphone-15',
}

/** A new account with a linked chat; its earlier per-chat slot (the link's answer) let go. */
async function linkedPerson() {
  const user = await site.newUser()
  const person = tgUser('en')
  await site.linked(user.id, person)
  await holdChat(person.id, 1)
  return { user, person }
}

test('a linked person gets the alert in their chat; one without a chat is unreachable', async () => {
  expect(telegramChannel.enabled()).toBe(true)
  const stranger = await site.newUser()
  expect(await telegramChannel.reachable([stranger.id])).toEqual(new Set())
  expect(await telegramChannel.send(stranger.id, message)).toEqual({ status: 'unreachable' })

  const { user, person } = await linkedPerson()
  expect(await telegramChannel.reachable([user.id])).toEqual(new Set([user.id]))
  expect(await telegramChannel.send(user.id, message)).toEqual({ status: 'sent' })
  expect(fake.sentTo(person.id).at(-1)?.text).toBe(
    `${message.title}\n\n${message.body}\n\n${message.url}`,
  )
})

test('one message a second per chat: the next one is told to wait', async () => {
  const { user, person } = await linkedPerson()
  expect(await telegramChannel.send(user.id, message)).toEqual({ status: 'sent' })
  const before = fake.sentTo(person.id).length
  const outcome = await telegramChannel.send(user.id, message)
  expect(outcome).toMatchObject({ status: 'retry' })
  const wait = outcome.status === 'retry' ? (outcome.retryAfterMs ?? 0) : 0
  expect(wait).toBeGreaterThan(0)
  expect(wait).toBeLessThanOrEqual(1_000)
  expect(fake.sentTo(person.id).length).toBe(before)
})

test('Telegram’s 429 is a retry after its retry_after, and the chat waits that long', async () => {
  const { user } = await linkedPerson()
  fake.tooManyRequests(3)
  expect(await telegramChannel.send(user.id, message)).toEqual({
    status: 'retry',
    retryAfterMs: 3_000,
    reason: '429 Too Many Requests: retry after 3',
  })
  const next = await telegramChannel.send(user.id, message)
  expect(next).toMatchObject({ status: 'retry' })
  expect(next.status === 'retry' && next.retryAfterMs).toBeGreaterThan(1_000)
})

test('a chat that blocked the bot is unlinked and the person is gone from the channel', async () => {
  const { user, person } = await linkedPerson()
  fake.block(person.id)
  expect(await telegramChannel.send(user.id, message)).toEqual({ status: 'gone' })
  expect(await prisma.telegramLink.count({ where: { userId: user.id } })).toBe(0)
  expect(await telegramChannel.reachable([user.id])).toEqual(new Set())
})

// Last: it fills this second's count for everyone.
test('about 30 messages a second in all, across chats and instances', async () => {
  // 70 chats at once: one second lets 30 go; a run across a second's edge at most 60.
  const chats = Array.from({ length: 70 }, (_, i) => 9_000_000_000 + i)
  const waits = await Promise.all(chats.map((chatId) => takeSendSlot(chatId)))
  const sent = waits.filter((wait) => wait === 0).length
  // (Messages of the tests before may have taken some of this second's.)
  expect(sent).toBeGreaterThan(0)
  expect(sent).toBeLessThanOrEqual(2 * PER_SECOND)
  for (const wait of waits) expect(wait).toBeLessThanOrEqual(1_000)
  // Those told to wait may go once the second is over, each chat at most once a second.
  const again = await takeSendSlot(chats[0]!)
  expect(again).toBeGreaterThan(0)
})
