import { RecordingChannel } from './alert-channel.ts'
import type { AlertRequest } from '~/services/alerts/enqueue.server.ts'
import { ALERT_GROUP, parseJob } from '~/services/alerts/queue-keys.server.ts'
import { AlertQueue } from '~/services/alerts/queue.server.ts'
import { getRedis } from '~/utils/redis.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import { getEnv } from '~/utils/env.server.ts'

// The alert queue's tests' side (app/services/alerts/*.test.ts): a queue on this test file's Redis
// prefix with a recording channel and a clock the test moves, people and auctions of its own.

/** 2026-11-27 12:00 in Bishkek (06:00 UTC). */
export const NOON = Date.UTC(2026, 10, 27, 6, 0, 0)

const POLICY = {
  maxAttempts: 3,
  baseDelayMs: 1_000,
  maxDelayMs: 60_000,
  blockMs: 0,
  maxHandlings: 3,
}

let counter = 0

export class AlertQueueHarness {
  readonly redis = getRedis()
  readonly prisma = getPrisma()
  readonly prefix = getEnv().REDIS_PREFIX
  clock = NOON
  channel = new RecordingChannel('telegram', () => this.clock)
  queue = this.makeQueue('one')

  makeQueue(consumer: string, claimIdleMs = 60_000) {
    return new AlertQueue({
      ...POLICY,
      claimIdleMs,
      redis: this.redis,
      prefix: this.prefix,
      channels: [this.channel],
      consumer,
      now: () => this.clock,
    })
  }

  sink = () => ({ redis: this.redis, keys: this.queue.keys, channels: [this.channel] })

  /** Deletes every key of the alert queue (this file's prefix only), as a loss of Redis would. */
  async forgetQueue() {
    const keys = await this.redis.keys(`{${this.prefix}}:alerts:*`)
    if (keys.length) await this.redis.del(...keys)
  }

  /** A new channel, queue and clock; the queue's keys gone. */
  reset = async () => {
    this.clock = NOON
    this.channel = new RecordingChannel('telegram', () => this.clock)
    this.queue = this.makeQueue('one')
    await this.forgetQueue()
    await this.queue.ensureGroup()
  }

  person = async (language = 'en') => {
    const name = `al${Date.now().toString(36)}${counter++}`
    return this.prisma.user.create({
      data: { username: name, email: `${name}@mail.kg`, language },
    })
  }

  auction = async () => {
    const n = `${Date.now().toString(36)}${counter++}`
    return this.prisma.auction.create({
      data: {
        displayId: `PA-Q${n}`,
        slug: `lot-${n}`,
        title: `Lot ${n}`,
        retailPrice: 100_00,
        startTime: new Date(NOON + 3600_000),
      },
    })
  }

  won = (userId: string, auctionId: string): AlertRequest => ({
    userId,
    kind: 'won',
    key: `won:${auctionId}`,
    auctionId,
  })

  deliveries = (userId: string) =>
    this.prisma.alertDelivery.findMany({
      where: { userId },
      orderBy: { key: 'asc' },
      select: { status: true, attempts: true },
    })

  /** A consumer reads the next entry and dies before deciding it; the job it read. */
  async takeAndDie(consumer: string) {
    const { stream } = this.queue.keys.lane('telegram')
    const reply = (await this.redis.xreadgroup(
      ...(['GROUP', ALERT_GROUP, consumer, 'COUNT', 1, 'STREAMS', stream, '>'] as const),
    )) as [string, [string, string[]][]][]
    return parseJob(reply[0]![1][0]![1][1])!
  }

  async delayedScores() {
    const { delayed } = this.queue.keys.lane('telegram')
    const members = await this.redis.zrange(delayed, 0, -1, 'WITHSCORES')
    return members.filter((_, i) => i % 2 === 1)
  }
}
