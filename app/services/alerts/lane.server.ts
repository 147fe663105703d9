import type { Redis } from 'ioredis'
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
  delayedMember,
  moveDue,
  parseJob,
  type AlertJob,
  type AlertQueueKeys,
  type LaneKeys,
} from '~/services/alerts/queue-keys.server.ts'
import { errorFields, log } from '~/utils/logger.server.ts'
import { alertDeadLetters, alertRetries, alertsSent } from '~/services/metrics.server.ts'
import { getPrisma } from '~/utils/db.server.ts'

// One channel's lane of the alert queue (app/services/alerts/queue.server.ts): its own stream
// read by the consumer group, its own delayed set, read by a loop of its own on every instance,
// so that a provider that answers slowly (a 10 s Telegram timeout) holds up only its own
// channel's alerts. An entry is acknowledged (and deleted) only after its attempt is decided:
// sent, recorded, or put back in the delayed set for a retry, the channel's pacing or the end of
// quiet hours. Entries a dead consumer held are claimed with XAUTOCLAIM once idle for
// `claimIdleMs`. An entry whose handling throws is a failed attempt like any other; one whose
// handling never finishes (it takes its consumer down) is a dead letter once begun
// `maxHandlings` times (docs/decisions/064-alerts-recorded-before-queued.md).

export type LaneOptions = RetryPolicy & {
  redis: Redis
  consumer: string
  /** An entry held this long by a consumer is taken over by another. */
  claimIdleMs: number
  /** Handlings of one entry begun and never finished, after which it is a dead letter. */
  maxHandlings: number
  now: () => number
}

/** Whether Postgres answers: a failure while it does is the job's own. */
const postgresAnswers = () => getPrisma().$queryRaw`SELECT 1`.then(() => true).catch(() => false)

type StreamReply = Array<[string, Array<[string, string[] | null]>]> | null

export class AlertLane {
  readonly keys: LaneKeys

  constructor(
    readonly channel: AlertChannel,
    private readonly queueKeys: AlertQueueKeys,
    private readonly options: LaneOptions,
  ) {
    this.keys = queueKeys.lane(channel.name)
  }

  /**
   * One round: due delayed jobs onto the stream, this consumer's own unacknowledged entries
   * (after a restart), entries a dead consumer left, then new ones (waiting up to `blockMs`).
   */
  async step(reader: Redis, ownPending: boolean, claim: boolean, blockMs: number) {
    await moveDue(this.options.redis, this.keys, this.options.now())
    if (ownPending) await this.handle(await this.read(reader, '0', 0))
    if (claim) await this.handle(await this.claim(reader))
    await this.handle(await this.read(reader, '>', blockMs))
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
      const now = this.options.now()
      return failedAttempt({ ...job, attempt: job.attempt + 1 }, reason, this.options, now)
    }
  }

  private async attempt(job: AlertJob): Promise<Delivery> {
    // A job of another channel (queued on this stream by hand) or of a channel turned off.
    if (job.channel !== this.channel.name || !this.channel.enabled()) {
      await recordOutcome(job, 'dropped')
      return { done: 'dropped' }
    }
    return deliver(job, this.channel, this.options, this.options.now())
  }

  /** Acknowledges the entry, with what its outcome changes in Redis, in one transaction. */
  private async settle(id: string, job: AlertJob | null, outcome: Delivery) {
    const { redis } = this.options
    const { stats } = this.queueKeys
    const channel = this.channel.name
    const step = redis
      .multi()
      .xack(this.keys.stream, ALERT_GROUP, id)
      .xdel(this.keys.stream, id)
      .hdel(this.keys.handling, id)
    if (!job) {
      // A malformed entry: dropped.
    } else if ('later' in outcome) {
      step.zadd(this.keys.delayed, outcome.later, delayedMember(outcome.job))
      if (outcome.failed) step.hincrby(stats, `failed:${channel}`, 1)
    } else {
      // Done with: no longer in Redis, so the recovery pass may queue it again if Postgres says
      // it is still pending (it says not).
      step.del(this.queueKeys.once(job.userId, job.channel, job.key))
      if (outcome.done === 'sent') step.hincrby(stats, `sent:${channel}`, 1)
      if (outcome.done === 'dead') {
        step.hincrby(stats, `failed:${channel}`, 1)
        step.hincrby(stats, `dead:${channel}`, 1)
        log.warn('alert dead-lettered', { key: job.key, channel, error: outcome.error })
      }
    }
    await step.exec()
    if ('later' in outcome && outcome.failed) alertRetries.inc({ channel })
    else if ('done' in outcome && outcome.done === 'sent') alertsSent.inc({ channel })
    else if ('done' in outcome && outcome.done === 'dead') alertDeadLetters.inc({ channel })
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
