import type { Redis } from 'ioredis'
import { duplicateRedis, ensureStreamGroup } from '../../../engine/index.ts'
import type { AlertChannel } from '~/services/alerts/channel.server.ts'
import { recordOutcome } from '~/services/alerts/deliveries.server.ts'
import {
  deliver,
  failedAttempt,
  type Delivery,
  type RetryPolicy,
} from '~/services/alerts/deliver.server.ts'
import {
  ALERT_GROUP,
  alertQueueKeys,
  delayedMember,
  moveDue,
  parseJob,
  type AlertJob,
  type AlertQueueKeys,
} from '~/services/alerts/queue-keys.server.ts'
import { errorFields, log } from '~/services/logger.server.ts'
import { getPrisma } from '~/utils/db.server.ts'

// The durable alert queue (docs/rules.md#alerts, docs/operations.md#the-alert-queue): a Redis
// stream read by a consumer group in which every instance is a consumer. An entry is
// acknowledged (and deleted) only after its attempt is decided: sent, recorded, or put back in
// the delayed set for a retry or for the end of quiet hours. Entries a dead consumer held are
// claimed with XAUTOCLAIM once they have been idle for `claimIdleMs`. An entry whose handling
// throws is a failed attempt like any other; one whose handling never finishes (it takes its
// consumer down) is a dead letter once begun `maxHandlings` times
// (docs/decisions/064-alerts-recorded-before-queued.md).

export type AlertQueueOptions = RetryPolicy & {
  redis: Redis
  prefix: string
  channels: readonly AlertChannel[]
  consumer: string
  /** An entry held this long by a consumer is taken over by another. */
  claimIdleMs: number
  /** How long one read waits for new entries. */
  blockMs: number
  /** Handlings of one entry begun and never finished, after which it is a dead letter. */
  maxHandlings: number
  now?: () => number
}

export const DEFAULT_ALERT_POLICY = {
  maxAttempts: 6,
  baseDelayMs: 5_000,
  maxDelayMs: 10 * 60_000,
  claimIdleMs: 60_000,
  blockMs: 1_000,
  maxHandlings: 3,
} as const

/** Whether Postgres answers: a failure while it does is the job's own. */
const postgresAnswers = () => getPrisma().$queryRaw`SELECT 1`.then(() => true).catch(() => false)

type StreamReply = Array<[string, Array<[string, string[] | null]>]> | null

export class AlertQueue {
  readonly keys: AlertQueueKeys
  private running = false
  private reader: Redis | undefined
  private loop: Promise<void> | undefined
  private readonly now: () => number

  constructor(private readonly options: AlertQueueOptions) {
    this.keys = alertQueueKeys(options.prefix)
    this.now = options.now ?? Date.now
  }

  async ensureGroup(redis: Redis = this.options.redis) {
    await ensureStreamGroup(redis, this.keys.stream, ALERT_GROUP)
  }

  start() {
    if (this.running) return
    this.running = true
    this.reader = duplicateRedis(
      this.options.redis,
      log,
      `alerts:${this.options.consumer}`.slice(0, 60),
    )
    this.loop = this.run()
  }

  async stop() {
    this.running = false
    this.reader?.disconnect()
    await this.loop?.catch(() => {})
    this.reader = undefined
  }

  private async run() {
    const reader = this.reader!
    let ownPending = true
    let claimedAt = 0
    let backoff = 0
    while (this.running) {
      try {
        await this.ensureGroup(reader)
        await this.step(reader, ownPending, claimedAt === 0 || this.now() - claimedAt >= 1_000)
        ownPending = false
        claimedAt = this.now()
        backoff = 0
      } catch (error) {
        if (!this.running) break
        ownPending = true
        backoff = Math.min(30_000, backoff ? backoff * 2 : 500)
        log.warn('alert queue failed; retrying', { ...errorFields(error), retryInMs: backoff })
        await new Promise((resolve) => setTimeout(resolve, backoff))
      }
    }
  }

  /**
   * One round: due delayed jobs onto the stream, this consumer's own unacknowledged entries
   * (after a restart), entries a dead consumer left, then new ones. Tests call it directly.
   */
  async step(reader: Redis = this.options.redis, ownPending = true, claim = true) {
    await moveDue(this.options.redis, this.keys, this.now())
    if (ownPending) await this.handle(await this.read(reader, '0', 0))
    if (claim) await this.handle(await this.claim(reader))
    await this.handle(await this.read(reader, '>', this.running ? this.options.blockMs : 0))
  }

  private async read(reader: Redis, from: string, blockMs: number) {
    const args: Array<string | number> = ['GROUP', ALERT_GROUP, this.options.consumer, 'COUNT', 50]
    if (blockMs) args.push('BLOCK', blockMs)
    args.push('STREAMS', this.keys.stream, from)
    const reply = (await (reader.xreadgroup as (...a: Array<string | number>) => Promise<unknown>)(
      ...args,
    )) as StreamReply
    return reply?.[0]?.[1] ?? []
  }

  private async claim(reader: Redis) {
    const reply = (await reader.xautoclaim(
      this.keys.stream,
      ALERT_GROUP,
      this.options.consumer,
      this.options.claimIdleMs,
      '0',
      'COUNT',
      50,
    )) as [string, Array<[string, string[] | null]>]
    return reply[1] ?? []
  }

  private async handle(rows: Array<[string, string[] | null]>) {
    for (const [id, fields] of rows) {
      const job = parseJob(fields?.[fields.indexOf('job') + 1])
      await this.settle(id, job, job ? await this.decide(id, job) : { done: 'dropped' })
    }
  }

  /** What becomes of one entry's job; throws only while Postgres is out of reach. */
  private async decide(id: string, job: AlertJob): Promise<Delivery> {
    const { redis, maxHandlings } = this.options
    const begun = await redis.hincrby(this.keys.handling, id, 1)
    if (begun > maxHandlings) {
      // Every handling of it so far ended with its consumer (a crash, a hang): not again.
      const error = `handling did not finish ${begun - 1} times`
      await recordOutcome(job, 'dead', error)
      return { done: 'dead', error }
    }
    try {
      return await this.attempt(job)
    } catch (error) {
      if (!(await postgresAnswers())) {
        // Not this job's fault: it waits, uncounted, in the pending list until Postgres is back.
        await redis.hincrby(this.keys.handling, id, -1).catch(() => {})
        throw error
      }
      log.warn('alert handling failed', { ...errorFields(error), key: job.key })
      const reason = error instanceof Error ? error.message : String(error)
      return failedAttempt({ ...job, attempt: job.attempt + 1 }, reason, this.options, this.now())
    }
  }

  private async attempt(job: AlertJob): Promise<Delivery> {
    const channel = this.options.channels.find((one) => one.name === job.channel)
    if (!channel?.enabled()) {
      await recordOutcome(job, 'dropped')
      return { done: 'dropped' }
    }
    return deliver(job, channel, this.options, this.now())
  }

  /** Acknowledges the entry, with what its outcome changes in Redis, in one transaction. */
  private async settle(id: string, job: AlertJob | null, outcome: Delivery) {
    const { redis } = this.options
    const step = redis
      .multi()
      .xack(this.keys.stream, ALERT_GROUP, id)
      .xdel(this.keys.stream, id)
      .hdel(this.keys.handling, id)
    if (!job) {
      // A malformed entry: dropped.
    } else if ('later' in outcome) {
      step.zadd(this.keys.delayed, outcome.later, delayedMember(outcome.job))
      if (outcome.failed) step.hincrby(this.keys.stats, `failed:${job.channel}`, 1)
    } else {
      // Done with: no longer in Redis, so the recovery pass may queue it again if Postgres says
      // it is still pending (it says not).
      step.del(this.keys.once(job.userId, job.channel, job.key))
      if (outcome.done === 'sent') step.hincrby(this.keys.stats, `sent:${job.channel}`, 1)
      if (outcome.done === 'dead') {
        step.hincrby(this.keys.stats, `failed:${job.channel}`, 1)
        step.hincrby(this.keys.stats, `dead:${job.channel}`, 1)
        log.warn('alert dead-lettered', {
          key: job.key,
          channel: job.channel,
          error: outcome.error,
        })
      }
    }
    await step.exec()
  }

  /** Entries on the stream not yet decided, and jobs waiting in the delayed set. */
  async length() {
    const [waiting, delayed] = await Promise.all([
      this.options.redis.xlen(this.keys.stream),
      this.options.redis.zcard(this.keys.delayed),
    ])
    return { waiting, delayed }
  }
}
