import type { Redis } from 'ioredis'
import { ALERT_CHANNELS, type AlertChannelName } from '~/models/alert-kinds.ts'
import {
  ALERT_GROUP,
  alertQueueKeys,
  type AlertQueueKeys,
} from '~/services/alerts/queue-keys.server.ts'
import {
  alertDeadLetters,
  alertRetries,
  alertsSent,
  labelledGaugeFrom,
} from '~/services/metrics.server.ts'
import { getRedis } from '~/utils/redis.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import { getEnv } from '~/utils/env.server.ts'

// What admins see of the alert queue (/admin/alerts, GET /api/admin/alerts) and what /metrics
// shows of each channel's lane; their meaning is in docs/operations.md#the-alert-queue.

const DEAD_SHOWN = 50

export async function getAlertMetrics() {
  const redis = getRedis()
  const keys = alertQueueKeys(getEnv().REDIS_PREFIX)
  const prisma = getPrisma()
  const lanes = ALERT_CHANNELS.map((channel) => keys.lane(channel))
  const total = (counts: number[]) => counts.reduce((sum, count) => sum + count, 0)
  const [waiting, delayed, pending, counters, recorded, dead] = await Promise.all([
    Promise.all(lanes.map((lane) => redis.xlen(lane.stream))).then(total),
    Promise.all(lanes.map((lane) => redis.zcard(lane.delayed))).then(total),
    Promise.all(
      lanes.map((lane) =>
        (redis.xpending(lane.stream, ALERT_GROUP) as Promise<[number, ...unknown[]]>)
          .then((summary) => Number(summary[0]))
          .catch(() => 0),
      ),
    ).then(total),
    redis.hgetall(keys.stats),
    prisma.alertDelivery.groupBy({ by: ['channel', 'status'], _count: { _all: true } }),
    prisma.alertDelivery.findMany({
      where: { status: 'dead' },
      orderBy: { createdAt: 'desc' },
      take: DEAD_SHOWN,
      select: {
        id: true,
        channel: true,
        kind: true,
        key: true,
        error: true,
        attempts: true,
        createdAt: true,
        user: { select: { id: true, username: true } },
      },
    }),
  ])
  const count = (channel: string, status: string) =>
    recorded.find((row) => row.channel === channel && row.status === status)?._count._all ?? 0
  return {
    queue: { waiting, delayed, pending },
    channels: ALERT_CHANNELS.map((channel) => ({
      channel,
      sent: count(channel, 'sent'),
      /** Recorded in Postgres and not yet done with (waiting, delayed or being sent). */
      unsent: count(channel, 'pending'),
      /** Failed attempts since Redis last lost its counters (retries included). */
      failed: Number(counters[`failed:${channel}`] ?? 0),
      dead: count(channel, 'dead'),
      gone: count(channel, 'gone'),
    })),
    deadLetters: dead.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
  }
}
export type AlertMetrics = Awaited<ReturnType<typeof getAlertMetrics>>

/** One channel's lane as /metrics shows it. */
export type LaneGauges = {
  channel: AlertChannelName
  /** Entries on the lane's stream: due and not yet decided. */
  depth: number
  /** Jobs waiting for a retry, the channel's pacing or quiet hours. */
  delayed: number
  /** How long the oldest entry on the stream has waited (seconds), 0 when there is none. */
  oldestAgeSeconds: number
}

/** Each lane's depth, delayed jobs and the age of its oldest entry, read from Redis. */
export async function laneGauges(
  redis: Redis,
  keys: AlertQueueKeys,
  channels: readonly AlertChannelName[],
  now = Date.now(),
): Promise<LaneGauges[]> {
  const step = redis.pipeline()
  for (const channel of channels) {
    const lane = keys.lane(channel)
    step.xlen(lane.stream).zcard(lane.delayed).xrange(lane.stream, '-', '+', 'COUNT', 1)
  }
  const replies = ((await step.exec()) ?? []).map(([error, value]) => {
    if (error) throw error
    return value
  })
  return channels.map((channel, i) => {
    const [depth, delayed, oldest] = replies.slice(3 * i, 3 * i + 3) as [
      number,
      number,
      Array<[string, string[]]>,
    ]
    // A stream entry's id begins with the milliseconds it was added at (queued, or moved back
    // from the delayed set when due).
    const addedAt = oldest[0] ? Number(oldest[0][0].split('-')[0]) : now
    return {
      channel,
      depth: Number(depth),
      delayed: Number(delayed),
      oldestAgeSeconds: Math.max(0, now - addedAt) / 1000,
    }
  })
}

let gaugeSource: { redis: Redis; keys: AlertQueueKeys; channels: AlertChannelName[] } | undefined
const readLanes = async () => {
  const source = gaugeSource
  return source ? laneGauges(source.redis, source.keys, source.channels) : []
}
const byChannel = (pick: (lane: LaneGauges) => number) => async () =>
  (await readLanes()).map((lane) => ({ labels: { channel: lane.channel }, value: pick(lane) }))

/**
 * Shows each lane of the queue on /metrics (server/metrics.ts): depth, delayed jobs and the
 * oldest entry's age per channel, read from Redis at each scrape, the same on every instance.
 * Sends, retries and dead letters are counted by each instance (app/services/metrics.server.ts).
 */
export function showAlertQueueMetrics(
  redis: Redis,
  prefix: string,
  channels: readonly AlertChannelName[],
) {
  gaugeSource = { redis, keys: alertQueueKeys(prefix), channels: [...channels] }
  // Each channel's counters are shown from the start, at 0 until something happens.
  for (const channel of channels)
    for (const counter of [alertsSent, alertRetries, alertDeadLetters]) counter.inc({ channel }, 0)
  labelledGaugeFrom(
    'pa_alert_queue_depth',
    'Alerts due on a channel’s lane and not yet decided',
    ['channel'],
    byChannel((lane) => lane.depth),
  )
  labelledGaugeFrom(
    'pa_alert_queue_delayed',
    'Alerts of a channel waiting for a retry, its pacing or quiet hours',
    ['channel'],
    byChannel((lane) => lane.delayed),
  )
  labelledGaugeFrom(
    'pa_alert_queue_oldest_age_seconds',
    'How long the oldest due alert of a channel has waited',
    ['channel'],
    byChannel((lane) => lane.oldestAgeSeconds),
  )
}
