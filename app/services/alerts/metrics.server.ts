import { ALERT_CHANNELS } from '~/services/alerts/channel.server.ts'
import { ALERT_GROUP, alertQueueKeys } from '~/services/alerts/queue-keys.server.ts'
import { getRedis } from '~/services/redis.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import { getEnv } from '~/utils/env.server.ts'

// What admins see of the alert queue (/admin/alerts, GET /api/admin/alerts; their meaning is
// in docs/operations.md#the-alert-queue).

const DEAD_SHOWN = 50

export async function getAlertMetrics() {
  const redis = getRedis()
  const keys = alertQueueKeys(getEnv().REDIS_PREFIX)
  const prisma = getPrisma()
  const [waiting, delayed, pending, counters, recorded, dead] = await Promise.all([
    redis.xlen(keys.stream),
    redis.zcard(keys.delayed),
    (redis.xpending(keys.stream, ALERT_GROUP) as Promise<[number, ...unknown[]]>)
      .then((summary) => Number(summary[0]))
      .catch(() => 0),
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
