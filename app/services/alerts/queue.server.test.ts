import { afterAll, beforeEach, expect, test } from 'vitest'
import { AlertQueueHarness, NOON } from '../../../tests/support/alert-queue.ts'
import { saveAlertChoices } from '~/models/alert-choices.server.ts'
import { enqueueAlerts } from '~/services/alerts/enqueue.server.ts'
import { ALERT_GROUP, queueJobs } from '~/services/alerts/queue-keys.server.ts'

// The durable alert queue against the real Redis and Postgres (docs/rules.md#alerts): once per
// key even after Redis forgets, retries with growing waits, the provider's wait honoured, dead
// letters, a dead consumer's entries claimed, quiet hours and choices.

const h = new AlertQueueHarness()
const { redis, prisma, person, auction, won, deliveries, sink } = h

beforeEach(() => h.reset())
afterAll(() => h.queue.stop())

test('an alert is sent once in the person’s language, and a repeat is not, even after Redis forgets', async () => {
  const user = await person('ka')
  const lot = await auction()
  expect(await enqueueAlerts([won(user.id, lot.id), won(user.id, lot.id)], sink())).toBe(1)
  expect(await deliveries(user.id)).toEqual([{ status: 'pending', attempts: 0 }])
  await h.queue.step()
  expect(h.channel.sent).toHaveLength(1)
  expect(h.channel.sent[0]!.message).toMatchObject({ kind: 'won', language: 'ka' })
  expect(h.channel.sent[0]!.message.url).toMatch(new RegExp(`/auction/${lot.slug}$`))
  expect(h.channel.sent[0]!.message.body).toContain(lot.title)
  expect(await redis.hget(h.queue.keys.stats, 'sent:telegram')).toBe('1')
  // Redis lost its keys: Postgres knows the alert, so it is not queued again, and a job for it
  // that reaches the queue all the same is not sent.
  await h.forgetQueue()
  await h.queue.ensureGroup()
  expect(await enqueueAlerts([won(user.id, lot.id)], sink())).toBe(0)
  const again = {
    ...won(user.id, lot.id),
    channel: 'telegram',
    attempt: 0,
    queuedAt: NOON,
  } as const
  expect(await queueJobs(redis, h.queue.keys, [again])).toBe(1)
  await h.queue.step()
  expect(h.channel.sent).toHaveLength(1)
  expect(await deliveries(user.id)).toEqual([{ status: 'sent', attempts: 1 }])
  expect(await h.queue.length()).toEqual({ waiting: 0, delayed: 0 })
  // Done with: its marker is gone with it.
  expect(await redis.keys(`${h.queue.keys.once(user.id, 'telegram', '')}*`)).toEqual([])
})

test('failed attempts are retried after growing waits, then the alert goes', async () => {
  const user = await person()
  const lot = await auction()
  h.channel.answer({ status: 'retry', reason: 'down' }, () => {
    throw new Error('network')
  })
  await enqueueAlerts([won(user.id, lot.id)], sink())
  await h.queue.step()
  expect(await h.delayedScores()).toEqual([String(NOON + 1_000)])
  h.clock = NOON + 999
  await h.queue.step()
  expect(h.channel.sent).toHaveLength(1)
  h.clock = NOON + 1_000
  await h.queue.step()
  expect(h.channel.sent).toHaveLength(2)
  expect(await h.delayedScores()).toEqual([String(NOON + 3_000)])
  h.clock = NOON + 3_000
  await h.queue.step()
  expect(h.channel.sent.map((s) => s.at)).toEqual([NOON, NOON + 1_000, NOON + 3_000])
  expect(await deliveries(user.id)).toEqual([{ status: 'sent', attempts: 3 }])
  expect(await redis.hget(h.queue.keys.stats, 'failed:telegram')).toBe('2')
})

test('after the last attempt the alert is a dead letter; a provider’s wait is honoured', async () => {
  const user = await person()
  const lot = await auction()
  const busy = { status: 'retry', reason: '429', retryAfterMs: 7_777 } as const
  h.channel.answer(busy, { status: 'retry', reason: '500' }, { status: 'retry', reason: '502' })
  await enqueueAlerts([won(user.id, lot.id)], sink())
  await h.queue.step()
  expect(await h.delayedScores()).toEqual([String(NOON + 7_777)])
  h.clock = NOON + 7_777
  await h.queue.step()
  h.clock = NOON + 7_777 + 2_000
  await h.queue.step()
  expect(h.channel.sent).toHaveLength(3)
  expect(await prisma.alertDelivery.findMany({ where: { userId: user.id } })).toMatchObject([
    { status: 'dead', attempts: 3, error: '502', channel: 'telegram', kind: 'won' },
  ])
  expect(await redis.hmget(h.queue.keys.stats, 'failed:telegram', 'dead:telegram')).toEqual([
    '3',
    '1',
  ])
  expect(await h.queue.length()).toEqual({ waiting: 0, delayed: 0 })
})

test('a channel that lost the address is not retried; a refused message is a dead letter', async () => {
  const [one, two] = [await person(), await person()]
  const lot = await auction()
  h.channel.answer({ status: 'gone' }, { status: 'failed', reason: 'bad request' })
  await enqueueAlerts([won(one.id, lot.id)], sink())
  await h.queue.step()
  await enqueueAlerts([won(two.id, lot.id)], sink())
  await h.queue.step()
  expect(await deliveries(one.id)).toEqual([{ status: 'gone', attempts: 1 }])
  expect(await deliveries(two.id)).toEqual([{ status: 'dead', attempts: 1 }])
  expect(await h.queue.length()).toEqual({ waiting: 0, delayed: 0 })
})

test('what a dead consumer held is claimed by another and sent', async () => {
  const user = await person()
  const lot = await auction()
  await enqueueAlerts([won(user.id, lot.id)], sink())
  // A consumer takes the entry and dies before deciding it.
  await h.takeAndDie('dead')
  await h.queue.step()
  expect(h.channel.sent).toHaveLength(0)
  const other = h.makeQueue('two', 0)
  await other.step()
  expect(h.channel.sent).toHaveLength(1)
  const pending = (await redis.xpending(h.queue.keys.lane('telegram').stream, ALERT_GROUP)) as [
    number,
  ]
  expect(pending[0]).toBe(0)
})

test('quiet hours hold a win until they end and drop an outbid that means nothing by then', async () => {
  const user = await person()
  const lot = await auction()
  await saveAlertChoices(user.id, [], [], { quietFrom: 22, quietTo: 7 })
  h.clock = Date.UTC(2026, 10, 27, 17, 30) // 23:30 in Bishkek
  const morning = Date.UTC(2026, 10, 28, 1, 0) // 07:00 in Bishkek
  const outbid = {
    userId: user.id,
    kind: 'outbid',
    key: `outbid:${lot.id}:1`,
    auctionId: lot.id,
    expiresAt: h.clock + 600_000,
  } as const
  await enqueueAlerts([won(user.id, lot.id), outbid], sink())
  await h.queue.step()
  expect(h.channel.sent).toHaveLength(0)
  expect(await h.delayedScores()).toEqual([String(morning)])
  expect(await deliveries(user.id)).toEqual([
    { status: 'expired', attempts: 0 },
    { status: 'pending', attempts: 0 },
  ])
  h.clock = morning
  await h.queue.step()
  expect(h.channel.sent.map((s) => s.message.kind)).toEqual(['won'])
})

test('an alert kind turned off on a channel is not sent there', async () => {
  const user = await person()
  const lot = await auction()
  await saveAlertChoices(user.id, ['telegram'], ['outbid:telegram'], {
    quietFrom: null,
    quietTo: null,
  })
  await enqueueAlerts([won(user.id, lot.id)], sink())
  await h.queue.step()
  expect(h.channel.sent).toHaveLength(0)
  expect(await h.queue.length()).toEqual({ waiting: 0, delayed: 0 })
})

test('an alert for someone deleted meanwhile is not recorded; the others are, and sent', async () => {
  const [stays, goes] = [await person(), await person()]
  const lot = await auction()
  await prisma.user.delete({ where: { id: goes.id } })
  expect(await enqueueAlerts([won(goes.id, lot.id), won(stays.id, lot.id)], sink())).toBe(1)
  await h.queue.step()
  expect(h.channel.delivered().map((one) => one.userId)).toEqual([stays.id])
  expect(await deliveries(stays.id)).toEqual([{ status: 'sent', attempts: 1 }])
})

test('the channel’s own pacing is not an attempt: an alert paced again and again still goes', async () => {
  const user = await person()
  const lot = await auction()
  const paced = { status: 'paced', afterMs: 400 } as const
  // More waits than the policy's 3 attempts.
  h.channel.answer(paced, paced, paced, paced, paced)
  await enqueueAlerts([won(user.id, lot.id)], sink())
  for (let round = 0; round < 6; round++) {
    await h.queue.step()
    h.clock += 400
  }
  expect(h.channel.delivered()).toHaveLength(1)
  expect(await deliveries(user.id)).toEqual([{ status: 'sent', attempts: 1 }])
  // Nothing counted as failed.
  expect(await redis.hget(h.queue.keys.stats, 'failed:telegram')).toBeNull()
})

test('jobs left on the one stream of before the lanes are moved to their channel’s lane and sent', async () => {
  const user = await person()
  const [lot, later] = [await auction(), await auction()]
  await enqueueAlerts([won(user.id, lot.id), won(user.id, later.id)], sink())
  // As an instance of before the lanes left them: one on the shared stream, one delayed.
  const { stream } = h.queue.keys.lane('telegram')
  const [first, second] = await redis.xrange(stream, '-', '+')
  await redis.del(stream)
  await redis.xadd(h.queue.keys.legacy.stream, '*', ...first![1])
  await redis.zadd(h.queue.keys.legacy.delayed, NOON, second![1][1]!)
  await h.queue.ensureGroup()
  await h.queue.step()
  expect(h.channel.delivered()).toHaveLength(2)
  expect(await deliveries(user.id)).toEqual([
    { status: 'sent', attempts: 1 },
    { status: 'sent', attempts: 1 },
  ])
  expect(await redis.exists(h.queue.keys.legacy.stream, h.queue.keys.legacy.delayed)).toBe(0)
})
