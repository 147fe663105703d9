import { afterAll, beforeEach, expect, test } from 'vitest'
import { RecordingChannel } from '../../../tests/support/alert-channel.ts'
import { saveAlertChoices } from '~/models/alert-choices.server.ts'
import { enqueueAlerts, type AlertRequest } from '~/services/alerts/enqueue.server.ts'
import { ALERT_GROUP } from '~/services/alerts/queue-keys.server.ts'
import { AlertQueue } from '~/services/alerts/queue.server.ts'
import { getRedis } from '~/services/redis.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import { getEnv } from '~/utils/env.server.ts'

// The durable alert queue against the real Redis and Postgres (docs/rules.md#alerts): once per
// key even after Redis forgets, retries with growing waits, the provider's wait honoured, dead
// letters, a dead consumer's entries claimed, quiet hours and choices.

const redis = getRedis()
const prisma = getPrisma()
const prefix = getEnv().REDIS_PREFIX
const policy = { maxAttempts: 3, baseDelayMs: 1_000, maxDelayMs: 60_000, blockMs: 0 }
/** 2026-11-27 12:00 in Bishkek (06:00 UTC). */
const NOON = Date.UTC(2026, 10, 27, 6, 0, 0)
let clock = NOON
let channel: RecordingChannel
let queue: AlertQueue

function makeQueue(consumer: string, claimIdleMs = 60_000) {
  return new AlertQueue({
    ...policy,
    claimIdleMs,
    redis,
    prefix,
    channels: [channel],
    consumer,
    now: () => clock,
  })
}

const sink = () => ({ redis, keys: queue.keys, channels: [channel] })
let counter = 0
async function person(language = 'en') {
  const name = `al${Date.now().toString(36)}${counter++}`
  return prisma.user.create({ data: { username: name, email: `${name}@mail.kg`, language } })
}
async function auction() {
  const n = `${Date.now().toString(36)}${counter++}`
  return prisma.auction.create({
    data: {
      displayId: `PA-Q${n}`,
      slug: `lot-${n}`,
      title: `Lot ${n}`,
      retailPrice: 100_00,
      startTime: new Date(NOON + 3600_000),
    },
  })
}
const won = (userId: string, auctionId: string): AlertRequest => ({
  userId,
  kind: 'won',
  key: `won:${auctionId}`,
  auctionId,
})
const deliveries = (userId: string) =>
  prisma.alertDelivery.findMany({ where: { userId }, select: { status: true, attempts: true } })
const delayedScores = async () =>
  (await redis.zrange(queue.keys.delayed, 0, -1, 'WITHSCORES')).filter((_, i) => i % 2 === 1)

beforeEach(async () => {
  clock = NOON
  channel = new RecordingChannel('telegram', () => clock)
  queue = makeQueue('one')
  const keys = await redis.keys(`{${prefix}}:alerts:*`)
  if (keys.length) await redis.del(...keys)
  await queue.ensureGroup()
})
afterAll(async () => {
  await queue.stop()
})

test('an alert is sent once in the person’s language, and a repeat is not, even after Redis forgets', async () => {
  const user = await person('ka')
  const lot = await auction()
  expect(await enqueueAlerts([won(user.id, lot.id), won(user.id, lot.id)], sink())).toBe(1)
  await queue.step()
  expect(channel.sent).toHaveLength(1)
  expect(channel.sent[0]!.message).toMatchObject({ kind: 'won', language: 'ka' })
  expect(channel.sent[0]!.message.url).toMatch(new RegExp(`/auction/${lot.slug}$`))
  expect(channel.sent[0]!.message.body).toContain(lot.title)
  // Redis lost its keys: the job is queued again, and Postgres keeps it from being sent.
  const keys = await redis.keys(`{${prefix}}:alerts:once:*`)
  await redis.del(...keys)
  expect(await enqueueAlerts([won(user.id, lot.id)], sink())).toBe(1)
  await queue.step()
  expect(channel.sent).toHaveLength(1)
  expect(await deliveries(user.id)).toEqual([{ status: 'sent', attempts: 1 }])
  expect(await redis.hget(queue.keys.stats, 'sent:telegram')).toBe('1')
  expect(await queue.length()).toEqual({ waiting: 0, delayed: 0 })
})

test('failed attempts are retried after growing waits, then the alert goes', async () => {
  const user = await person()
  const lot = await auction()
  channel.answer({ status: 'retry', reason: 'down' }, () => {
    throw new Error('network')
  })
  await enqueueAlerts([won(user.id, lot.id)], sink())
  await queue.step()
  expect(await delayedScores()).toEqual([String(NOON + 1_000)])
  clock = NOON + 999
  await queue.step()
  expect(channel.sent).toHaveLength(1)
  clock = NOON + 1_000
  await queue.step()
  expect(channel.sent).toHaveLength(2)
  expect(await delayedScores()).toEqual([String(NOON + 3_000)])
  clock = NOON + 3_000
  await queue.step()
  expect(channel.sent.map((s) => s.at)).toEqual([NOON, NOON + 1_000, NOON + 3_000])
  expect(await deliveries(user.id)).toEqual([{ status: 'sent', attempts: 3 }])
  expect(await redis.hget(queue.keys.stats, 'failed:telegram')).toBe('2')
})

test('after the last attempt the alert is a dead letter; a provider’s wait is honoured', async () => {
  const user = await person()
  const lot = await auction()
  const busy = { status: 'retry', reason: '429', retryAfterMs: 7_777 } as const
  channel.answer(busy, { status: 'retry', reason: '500' }, { status: 'retry', reason: '502' })
  await enqueueAlerts([won(user.id, lot.id)], sink())
  await queue.step()
  expect(await delayedScores()).toEqual([String(NOON + 7_777)])
  clock = NOON + 7_777
  await queue.step()
  clock = NOON + 7_777 + 2_000
  await queue.step()
  expect(channel.sent).toHaveLength(3)
  expect(await prisma.alertDelivery.findMany({ where: { userId: user.id } })).toMatchObject([
    { status: 'dead', attempts: 3, error: '502', channel: 'telegram', kind: 'won' },
  ])
  expect(await redis.hmget(queue.keys.stats, 'failed:telegram', 'dead:telegram')).toEqual([
    '3',
    '1',
  ])
  expect(await queue.length()).toEqual({ waiting: 0, delayed: 0 })
})

test('a channel that lost the address is not retried; a refused message is a dead letter', async () => {
  const [one, two] = [await person(), await person()]
  const lot = await auction()
  channel.answer({ status: 'gone' }, { status: 'failed', reason: 'bad request' })
  await enqueueAlerts([won(one.id, lot.id)], sink())
  await queue.step()
  await enqueueAlerts([won(two.id, lot.id)], sink())
  await queue.step()
  expect(await deliveries(one.id)).toEqual([{ status: 'gone', attempts: 1 }])
  expect(await deliveries(two.id)).toEqual([{ status: 'dead', attempts: 1 }])
  expect(await queue.length()).toEqual({ waiting: 0, delayed: 0 })
})

test('what a dead consumer held is claimed by another and sent', async () => {
  const user = await person()
  const lot = await auction()
  await enqueueAlerts([won(user.id, lot.id)], sink())
  // A consumer takes the entry and dies before deciding it.
  await redis.xreadgroup(
    'GROUP',
    ALERT_GROUP,
    'dead',
    'COUNT',
    10,
    'STREAMS',
    queue.keys.stream,
    '>',
  )
  await queue.step()
  expect(channel.sent).toHaveLength(0)
  const other = makeQueue('two', 0)
  await other.step()
  expect(channel.sent).toHaveLength(1)
  const pending = (await redis.xpending(queue.keys.stream, ALERT_GROUP)) as [number]
  expect(pending[0]).toBe(0)
})

test('quiet hours hold a win until they end and drop an outbid that means nothing by then', async () => {
  const user = await person()
  const lot = await auction()
  await saveAlertChoices(user.id, [], [], { quietFrom: 22, quietTo: 7 })
  clock = Date.UTC(2026, 10, 27, 17, 30) // 23:30 in Bishkek
  const morning = Date.UTC(2026, 10, 28, 1, 0) // 07:00 in Bishkek
  const outbid = {
    userId: user.id,
    kind: 'outbid',
    key: `outbid:${lot.id}:1`,
    auctionId: lot.id,
    expiresAt: clock + 600_000,
  } as const
  await enqueueAlerts([won(user.id, lot.id), outbid], sink())
  await queue.step()
  expect(channel.sent).toHaveLength(0)
  expect(await delayedScores()).toEqual([String(morning)])
  expect(await deliveries(user.id)).toEqual([{ status: 'expired', attempts: 1 }])
  clock = morning
  await queue.step()
  expect(channel.sent.map((s) => s.message.kind)).toEqual(['won'])
})

test('an alert kind turned off on a channel is not sent there', async () => {
  const user = await person()
  const lot = await auction()
  await saveAlertChoices(user.id, ['telegram'], ['outbid:telegram'], {
    quietFrom: null,
    quietTo: null,
  })
  await enqueueAlerts([won(user.id, lot.id)], sink())
  await queue.step()
  expect(channel.sent).toHaveLength(0)
  expect(await queue.length()).toEqual({ waiting: 0, delayed: 0 })
})
