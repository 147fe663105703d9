import { afterEach, expect, test } from 'vitest'
import { RecordingChannel } from '../../../tests/support/alert-channel.ts'
import { AlertQueueHarness } from '../../../tests/support/alert-queue.ts'
import type { SendOutcome } from '~/services/alerts/channel.server.ts'
import { enqueueAlerts } from '~/services/alerts/enqueue.server.ts'
import { laneGauges, showAlertQueueMetrics } from '~/services/alerts/metrics.server.ts'
import { AlertQueue } from '~/services/alerts/queue.server.ts'
import {
  alertDeadLetters,
  alertRetries,
  alertsSent,
  metricsRegistry,
} from '~/services/metrics.server.ts'

// Each channel's lane of the alert queue runs on its own (docs/decisions/076-alerts-a-person-can-trust.md):
// a provider that does not answer holds up only its own channel, and /metrics shows each lane's
// depth, oldest job, sends, retries and dead letters.

const h = new AlertQueueHarness()
const { redis, prefix, person, auction, won } = h
let queue: AlertQueue | undefined
/** Lets the send that does not answer finish (a failed test must not leave the loop in it). */
let answer: ((outcome: SendOutcome) => void) | undefined
afterEach(async () => {
  answer?.({ status: 'sent' })
  await queue?.stop()
  queue = undefined
  answer = undefined
})

/** Waits until `done` holds, for at most `ms`. */
async function until(done: () => boolean | Promise<boolean>, ms = 10_000) {
  const end = Date.now() + ms
  while (!(await done())) {
    if (Date.now() > end) throw new Error('not reached in time')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** A metric's value for a channel, as /metrics shows it. */
async function shown(name: string, channel: string) {
  const text = await metricsRegistry.metrics()
  const line = text.split('\n').find((l) => l.startsWith(`${name}{channel="${channel}"}`))
  return line === undefined ? undefined : Number(line.split(' ').at(-1))
}

test('a Telegram that does not answer holds up no Web Push alert; /metrics shows the stuck lane', async () => {
  await h.reset()
  const user = await person()
  const lot = await auction()
  const telegram = new RecordingChannel('telegram')
  const push = new RecordingChannel('push')
  telegram.answer(() => new Promise<SendOutcome>((resolve) => (answer = resolve)))
  queue = new AlertQueue({
    maxAttempts: 3,
    baseDelayMs: 1_000,
    maxDelayMs: 60_000,
    claimIdleMs: 60_000,
    blockMs: 50,
    maxHandlings: 3,
    redis,
    prefix,
    channels: [telegram, push],
    consumer: 'lanes',
  })
  await queue.ensureGroup()
  const sentBefore = (await alertsSent.get()).values.find((v) => v.labels.channel === 'push')
  const sink = { redis, keys: queue.keys, channels: [telegram, push] }
  expect(await enqueueAlerts([won(user.id, lot.id)], sink)).toBe(2)
  queue.start()

  // Telegram holds its alert (a send that never answers): Web Push's goes all the same.
  await until(() => telegram.sent.length === 1 && push.delivered().length === 1)
  expect(telegram.sent[0]!.outcome).toBeUndefined()

  const lanes = () => laneGauges(redis, queue!.keys, ['telegram', 'push'])
  // Push's entry acknowledged once the provider took it; Telegram's still waits.
  await until(async () => (await lanes())[1]!.depth === 0)
  const [onTelegram, onPush] = await lanes()
  expect(onTelegram).toMatchObject({ channel: 'telegram', depth: 1, delayed: 0 })
  expect(onPush).toEqual({ channel: 'push', depth: 0, delayed: 0, oldestAgeSeconds: 0 })
  showAlertQueueMetrics(redis, prefix, ['telegram', 'push'])
  await new Promise((resolve) => setTimeout(resolve, 30))
  expect(await shown('pa_alert_queue_depth', 'telegram')).toBe(1)
  expect(await shown('pa_alert_queue_oldest_age_seconds', 'telegram')).toBeGreaterThan(0)
  expect(await shown('pa_alert_queue_depth', 'push')).toBe(0)
  expect(await shown('pa_alerts_sent_total', 'push')).toBe((sentBefore?.value ?? 0) + 1)

  answer!({ status: 'sent' })
  await until(() => telegram.delivered().length === 1)
  await until(async () => (await queue!.length()).waiting === 0)
  expect(await shown('pa_alert_queue_depth', 'telegram')).toBe(0)
})

test('/metrics counts each channel’s retries and dead letters', async () => {
  await h.reset()
  const user = await person()
  const lot = await auction()
  const count = async (metric: typeof alertRetries) =>
    (await metric.get()).values.find((v) => v.labels.channel === 'telegram')?.value ?? 0
  const [retries, dead] = [await count(alertRetries), await count(alertDeadLetters)]
  h.channel.answer({ status: 'retry', reason: 'down' }, { status: 'failed', reason: 'refused' })
  await enqueueAlerts([won(user.id, lot.id)], h.sink())
  await h.queue.step()
  h.clock += 1_000
  await h.queue.step()
  expect(await count(alertRetries)).toBe(retries + 1)
  expect(await count(alertDeadLetters)).toBe(dead + 1)
  expect(await shown('pa_alert_retries_total', 'telegram')).toBe(retries + 1)
  expect(await shown('pa_alert_dead_letters_total', 'telegram')).toBe(dead + 1)
})
