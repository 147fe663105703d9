import type { Redis } from 'ioredis'
import { duplicateRedis, ensureStreamGroup } from '../../../engine/index.ts'
import type { AlertChannel } from '~/services/alerts/channel.server.ts'
import type { RetryPolicy } from '~/services/alerts/deliver.server.ts'
import { AlertLane } from '~/services/alerts/lane.server.ts'
import {
  ALERT_GROUP,
  alertQueueKeys,
  moveLegacyJobs,
  type AlertQueueKeys,
} from '~/services/alerts/queue-keys.server.ts'
import { errorFields, log } from '~/utils/logger.server.ts'

// The durable alert queue (docs/rules.md#alerts, docs/operations.md#the-alert-queue): one lane
// per channel (app/services/alerts/lane.server.ts), each a Redis stream read by a consumer group
// in which every instance is a consumer, and each read by its own loop with its own connection:
// a channel whose provider answers slowly holds up nothing of the others
// (docs/decisions/076-alerts-a-person-can-trust.md).

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

export class AlertQueue {
  readonly keys: AlertQueueKeys
  readonly lanes: readonly AlertLane[]
  private running = false
  private readers: Redis[] = []
  private loops: Array<Promise<void>> = []
  private readonly now: () => number

  constructor(private readonly options: AlertQueueOptions) {
    this.keys = alertQueueKeys(options.prefix)
    this.now = options.now ?? Date.now
    const laneOptions = { ...options, now: this.now }
    this.lanes = options.channels.map((channel) => new AlertLane(channel, this.keys, laneOptions))
  }

  /**
   * Every lane's consumer group (and stream), and the jobs the shared stream of before the lanes
   * still holds moved onto their lanes.
   */
  async ensureGroup(redis: Redis = this.options.redis) {
    for (const lane of this.lanes) await ensureStreamGroup(redis, lane.keys.stream, ALERT_GROUP)
    const channels = this.lanes.map((lane) => lane.channel.name)
    const moved = await moveLegacyJobs(this.options.redis, this.keys, channels)
    if (moved > 0) log.info('alerts moved to their channels’ lanes', { count: moved })
  }

  start() {
    if (this.running) return
    this.running = true
    this.readers = this.lanes.map((lane) =>
      duplicateRedis(
        this.options.redis,
        log,
        `alerts:${lane.channel.name}:${this.options.consumer}`.slice(0, 60),
      ),
    )
    this.loops = this.lanes.map((lane, i) => this.run(lane, this.readers[i]!))
  }

  async stop() {
    this.running = false
    for (const reader of this.readers) reader.disconnect()
    await Promise.all(this.loops.map((loop) => loop.catch(() => {})))
    this.readers = []
    this.loops = []
  }

  private async run(lane: AlertLane, reader: Redis) {
    let ownPending = true
    let claimedAt = 0
    let backoff = 0
    while (this.running) {
      try {
        await ensureStreamGroup(reader, lane.keys.stream, ALERT_GROUP)
        if (ownPending) await this.ensureGroup(reader)
        const claim = claimedAt === 0 || this.now() - claimedAt >= 1_000
        await lane.step(reader, ownPending, claim, this.options.blockMs)
        ownPending = false
        claimedAt = this.now()
        backoff = 0
      } catch (error) {
        if (!this.running) break
        ownPending = true
        backoff = Math.min(30_000, backoff ? backoff * 2 : 500)
        log.warn('alert queue failed; retrying', {
          ...errorFields(error),
          channel: lane.channel.name,
          retryInMs: backoff,
        })
        await new Promise((resolve) => setTimeout(resolve, backoff))
      }
    }
  }

  /**
   * One round of every lane, side by side: due delayed jobs onto the streams, this consumer's
   * own unacknowledged entries (after a restart), entries a dead consumer left, then new ones.
   * Tests call it directly.
   */
  async step(reader: Redis = this.options.redis, ownPending = true, claim = true) {
    await Promise.all(this.lanes.map((lane) => lane.step(reader, ownPending, claim, 0)))
  }

  /** Entries on the streams not yet decided, and jobs waiting in the delayed sets. */
  async length() {
    const lengths = await Promise.all(this.lanes.map((lane) => lane.length()))
    return {
      waiting: lengths.reduce((sum, one) => sum + one.waiting, 0),
      delayed: lengths.reduce((sum, one) => sum + one.delayed, 0),
    }
  }
}
