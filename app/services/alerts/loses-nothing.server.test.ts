import { Redis } from 'ioredis'
import { afterAll, beforeEach, expect, test } from 'vitest'
import { LISTENER_TRIES, type OutboxEntry } from '../../../engine/index.ts'
import { createAuction, createUser, testEngine } from '../../../engine/test-support.ts'
import { AlertQueueHarness } from '../../../tests/support/alert-queue.ts'
import { deliver } from '~/services/alerts/deliver.server.ts'
import { enqueueAlerts } from '~/services/alerts/enqueue.server.ts'
import { alertsOfBatches } from '~/services/alerts/from-outbox.server.ts'
import { getAlertMetrics } from '~/services/alerts/metrics.server.ts'
import { ALERT_GROUP, queueJobs } from '~/services/alerts/queue-keys.server.ts'
import { AlertScheduler } from '~/services/alerts/scheduler.server.ts'
import { requeuePending } from '~/services/alerts/recovery.server.ts'

// Delivery that loses nothing and spams no one (docs/decisions/064-alerts-recorded-before-queued.md),
// against the real engine, outbox, Redis and Postgres: an alert survives its producer failing,
// Redis forgetting the queue, and a consumer dying after the provider took it; a job that cannot
// be handled ends as a dead letter after a bounded number of tries. After each, every alert
// recorded is sent exactly once or is a dead letter.

const h = new AlertQueueHarness()
const { redis, person, auction, won, sink } = h
const { engine, outbox, prisma } = testEngine()
const presence = { redis: engine.redis, prefix: engine.keys.base.slice(1, -2) }
let lastBatch: OutboxEntry[] = []
outbox.onWritten(async (entries) => (lastBatch = entries))
outbox.onWritten((entries) => alertsOfBatches(presence, sink())(entries))

beforeEach(() => h.reset())
afterAll(async () => {
  await outbox.stop()
  await h.queue.stop()
})

/** Every alert of these people sent exactly once, or a dead letter never sent. */
async function eachOnceOrDead(userIds: string[]) {
  const rows = await prisma.alertDelivery.findMany({ where: { userId: { in: userIds } } })
  expect(rows.length).toBeGreaterThan(0)
  for (const row of rows) {
    const taken = h.channel
      .delivered()
      .filter((one) => one.userId === row.userId && one.message.kind === row.kind)
    expect({ key: row.key, status: row.status, sent: taken.length }).toEqual({
      key: row.key,
      status: expect.stringMatching(/^(sent|dead)$/),
      sent: row.status === 'sent' ? 1 : 0,
    })
  }
  const lane = h.queue.keys.lane('telegram')
  const pending = (await redis.xpending(lane.stream, ALERT_GROUP)) as [number]
  expect(pending[0]).toBe(0)
  expect(await h.queue.length()).toEqual({ waiting: 0, delayed: 0 })
  expect(await redis.hlen(lane.handling)).toBe(0)
}

/** A watched auction that the engine starts: its outbox batch has a "started" alert. */
async function watchedStart() {
  const watcher = await createUser(prisma)
  const lot = await createAuction(prisma)
  await prisma.watch.create({ data: { userId: watcher.id, auctionId: lot.id } })
  await engine.loadAuction(lot.id)
  await engine.sweep()
  return { watcher, lot }
}

test('the outbox’s listener failing once: the batch is given again, the alert sent once', async () => {
  await outbox.drain()
  const { watcher } = await watchedStart()
  h.channel.failReachable = 1
  await expect(outbox.drain()).rejects.toThrow('Postgres is not answering')
  expect(await h.deliveries(watcher.id)).toEqual([])
  // The batch was not acknowledged: given again, its alert is recorded and queued.
  expect(await outbox.drain()).toBeGreaterThan(0)
  expect(await h.deliveries(watcher.id)).toEqual([{ status: 'pending', attempts: 0 }])
  await h.queue.step()
  // Written and given once more (a replay after a crash): the same alert, not queued again.
  await outbox.apply(lastBatch)
  expect(await h.queue.length()).toEqual({ waiting: 0, delayed: 0 })
  expect(h.channel.delivered().map((one) => one.message.kind)).toEqual(['started'])
  await eachOnceOrDead([watcher.id])
})

test('a listener that never succeeds holds its batch back a bounded number of tries', async () => {
  const other = testEngine()
  other.outbox.onWritten(async () => {
    throw new Error('broken')
  })
  await createAuction(other.prisma).then((lot) => other.engine.loadAuction(lot.id))
  await other.engine.sweep()
  let tries = 1
  while (
    await other.outbox.drain().then(
      () => false,
      () => true,
    )
  )
    tries++
  expect(tries).toBe(LISTENER_TRIES)
  expect(await other.outbox.lag()).toBe(0)
  await other.outbox.stop()
})

test('alerts recorded while Redis refused them are queued by the recovery pass and sent once', async () => {
  const [one, two] = [await person(), await person()]
  const lot = await auction()
  // A Redis nobody answers at: the alerts are recorded, and not queued.
  const away = new Redis({
    port: 1,
    lazyConnect: true,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  })
  const requests = [won(one.id, lot.id), won(two.id, lot.id)]
  expect(await enqueueAlerts(requests, { ...sink(), redis: away })).toBe(0)
  away.disconnect()
  await h.queue.step()
  expect(h.channel.sent).toEqual([])
  expect(await requeuePending(sink())).toBe(2)
  expect(await requeuePending(sink())).toBe(0)
  await h.queue.step()
  expect(await requeuePending(sink())).toBe(0)
  await h.queue.step()
  await eachOnceOrDead([one.id, two.id])
})

test('the queue’s keys deleted: the lease holder’s pass queues every pending alert again, each sent once', async () => {
  const [sent, waiting, retrying, claimed] = [
    await person(),
    await person(),
    await person(),
    await person(),
  ]
  const lot = await auction()
  await enqueueAlerts([won(sent.id, lot.id)], sink())
  await h.queue.step()
  h.channel.answer({ status: 'retry', reason: '503' })
  await enqueueAlerts([won(retrying.id, lot.id)], sink())
  await h.queue.step()
  expect(await h.delayedScores()).toHaveLength(1)
  // One taken by a consumer that dies, one never read.
  await enqueueAlerts([won(claimed.id, lot.id)], sink())
  await h.takeAndDie('gone')
  await enqueueAlerts([won(waiting.id, lot.id)], sink())

  await h.forgetQueue()
  await h.queue.ensureGroup()
  await h.queue.step()
  expect(h.channel.sent).toHaveLength(2)
  // The scheduler's first round on the lease holder runs the recovery pass.
  const scheduler = new AlertScheduler(sink())
  expect(await scheduler.tick(new Date(h.clock))).toBe(3)
  expect(await scheduler.tick(new Date(h.clock + 20_000))).toBe(0)
  await h.queue.step()
  const people = [sent, waiting, retrying, claimed].map((one) => one.id)
  expect(
    h.channel
      .delivered()
      .map((one) => people.indexOf(one.userId))
      .sort(),
  ).toEqual([0, 1, 2, 3])
  await eachOnceOrDead(people)
})

test('a job whose handling throws every time is a dead letter after the last attempt', async () => {
  const user = await person()
  const lot = await auction()
  // A job this code cannot read (an auction id that is not text): looking it up throws.
  const poison = {
    ...won(user.id, lot.id),
    auctionId: 42 as unknown as string,
    channel: 'telegram',
    attempt: 0,
    queuedAt: h.clock,
  } as const
  await queueJobs(redis, h.queue.keys, [poison])
  for (const wait of [0, 1_000, 2_000]) {
    h.clock += wait
    await h.queue.step()
  }
  expect(h.channel.sent).toEqual([])
  expect(await h.deliveries(user.id)).toEqual([{ status: 'dead', attempts: 3 }])
  const { deadLetters } = await getAlertMetrics()
  expect(deadLetters.find((row) => row.user.id === user.id)).toMatchObject({
    key: `won:${lot.id}`,
    error: expect.stringContaining('Invalid'),
  })
  await eachOnceOrDead([user.id])
})

test('a job its consumers die on is claimed at most 3 times, then a dead letter', async () => {
  const user = await person()
  const lot = await auction()
  const never = () => new Promise<never>(() => {})
  h.channel.answer(never, never, never)
  await enqueueAlerts([won(user.id, lot.id)], sink())
  // Three consumers in turn take the entry and never finish it (as if each died in it).
  const dying = [h.queue, h.makeQueue('two', 0), h.makeQueue('three', 0)]
  for (const consumer of dying) {
    void consumer.step()
    await expect.poll(() => h.channel.sent.length).toBe(dying.indexOf(consumer) + 1)
  }
  await h.makeQueue('four', 0).step()
  expect(h.channel.sent).toHaveLength(3)
  expect(await prisma.alertDelivery.findMany({ where: { userId: user.id } })).toMatchObject([
    { status: 'dead', error: 'handling did not finish 3 times' },
  ])
  expect((await getAlertMetrics()).deadLetters.some((row) => row.user.id === user.id)).toBe(true)
  await eachOnceOrDead([user.id])
})

test('a consumer that dies after the provider took the alert: the redelivery does not send it again', async () => {
  const user = await person()
  const lot = await auction()
  await enqueueAlerts([won(user.id, lot.id)], sink())
  const job = await h.takeAndDie('dies')
  // It sends and records "sent", and dies before acknowledging the entry.
  expect(
    await deliver(job, h.channel, { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 1 }, h.clock),
  ).toEqual({ done: 'sent' })
  await h.makeQueue('next', 0).step()
  expect(h.channel.sent).toHaveLength(1)
  await eachOnceOrDead([user.id])
})
