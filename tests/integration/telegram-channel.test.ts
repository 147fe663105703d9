import { afterAll, expect, test } from 'vitest'
import { startTelegramSite, tgUser } from '../support/telegram-site.ts'

// Alerts through the bot (app/services/alerts/telegram-channel.server.ts) against a fake
// Telegram: a message to the linked chat with the link; Telegram's limits kept in Redis (our own
// pacing spends no attempt); a 429's retry_after honoured; a chat that blocked the bot unlinked.

const site = await startTelegramSite()
const { fake, prisma } = site
afterAll(() => site.stop())

const { telegramChannel } = await import('~/services/alerts/telegram-channel.server.ts')
const { AlertQueue, DEFAULT_ALERT_POLICY } = await import('~/services/alerts/queue.server.ts')
const { enqueueAlerts } = await import('~/services/alerts/enqueue.server.ts')
const { getRedis } = await import('~/utils/redis.server.ts')
const { getEnv } = await import('~/utils/env.server.ts')
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

test('one message a second per chat: the next one is paced, Telegram not asked', async () => {
  const { user, person } = await linkedPerson()
  expect(await telegramChannel.send(user.id, message)).toEqual({ status: 'sent' })
  const before = fake.sentTo(person.id).length
  const calls = fake.calls.length
  const outcome = await telegramChannel.send(user.id, message)
  expect(outcome).toMatchObject({ status: 'paced' })
  const wait = outcome.status === 'paced' ? outcome.afterMs : 0
  expect(wait).toBeGreaterThan(0)
  expect(wait).toBeLessThanOrEqual(1_000)
  expect(fake.sentTo(person.id).length).toBe(before)
  expect(fake.calls.length).toBe(calls)
})

test('seven alerts to one chat at once all arrive, a second apart, none a dead letter', async () => {
  // Seven watched auctions starting together: the chat's pacing is not a failed attempt.
  const { user, person } = await linkedPerson()
  const before = fake.sentTo(person.id).length
  const auctions = []
  for (let i = 0; i < 7; i++) {
    const n = `${Date.now().toString(36)}${i}`
    auctions.push(
      await prisma.auction.create({
        data: {
          displayId: `PA-P${n}`,
          slug: `paced-${n}`,
          title: `Paced ${n}`,
          retailPrice: 100_000,
          startTime: new Date(),
        },
      }),
    )
  }
  const queue = new AlertQueue({
    ...DEFAULT_ALERT_POLICY,
    redis: getRedis(),
    prefix: getEnv().REDIS_PREFIX,
    channels: [telegramChannel],
    consumer: 'paced',
    blockMs: 0,
  })
  await queue.ensureGroup()
  const sink = { redis: getRedis(), keys: queue.keys, channels: [telegramChannel] }
  const requests = auctions.map((auction) => ({
    userId: user.id,
    kind: 'won' as const,
    key: `won:${auction.id}`,
    auctionId: auction.id,
  }))
  expect(await enqueueAlerts(requests, sink)).toBe(7)
  const until = Date.now() + 20_000
  const rows = () => prisma.alertDelivery.findMany({ where: { userId: user.id } })
  while ((await rows()).some((row) => row.status === 'pending') && Date.now() < until) {
    await queue.step()
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  const done = await rows()
  expect(done.map((row) => row.status)).toEqual(Array(7).fill('sent'))
  // Each took one attempt: the waits for the chat's second were not counted.
  expect(done.map((row) => row.attempts)).toEqual(Array(7).fill(1))
  expect(fake.sentTo(person.id).length - before).toBe(7)
})

test('Telegram’s 429 is a retry after its retry_after, and the chat waits that long', async () => {
  const { user } = await linkedPerson()
  fake.tooManyRequests(3)
  expect(await telegramChannel.send(user.id, message)).toEqual({
    status: 'retry',
    retryAfterMs: 3_000,
    reason: '429 Too Many Requests: retry after 3',
  })
  // Held that long for every instance: the next alert waits without asking Telegram.
  const next = await telegramChannel.send(user.id, message)
  expect(next).toMatchObject({ status: 'paced' })
  expect(next.status === 'paced' && next.afterMs).toBeGreaterThan(1_000)
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
