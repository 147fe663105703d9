import type { Redis } from 'ioredis'
import type { AlertKind } from '~/models/alert-kinds.ts'
import type { AlertChannel } from '~/services/alerts/channel.server.ts'
import { alertChannels, enabledChannels } from '~/services/alerts/channels.server.ts'
import { recordPending } from '~/services/alerts/deliveries.server.ts'
import {
  alertQueueKeys,
  queueJobs,
  type AlertJob,
  type AlertQueueKeys,
} from '~/services/alerts/queue-keys.server.ts'
import { errorFields, log } from '~/utils/logger.server.ts'
import { getRedis } from '~/utils/redis.server.ts'
import { getEnv } from '~/utils/env.server.ts'

// Alerts onto the queue (app/services/alerts/queue.server.ts): one job per channel the person
// can be reached on, recorded as pending in Postgres first (the record that loses nothing,
// docs/decisions/064-alerts-recorded-before-queued.md), then queued in Redis; a repeat of a
// recorded alert is not queued again.

export type AlertRequest = {
  userId: string
  kind: AlertKind
  key: string
  auctionId?: string
  orderId?: string
  expiresAt?: number
}

export type AlertSink = {
  redis: Redis
  keys: AlertQueueKeys
  channels: readonly AlertChannel[]
}

export function defaultSink(): AlertSink {
  return {
    redis: getRedis(),
    keys: alertQueueKeys(getEnv().REDIS_PREFIX),
    channels: alertChannels,
  }
}

/**
 * Records the alerts and queues them; the number of jobs queued (a repeat of an alert recorded
 * before is not). Throws when Postgres did not record them; once it did, a failure to queue in
 * Redis is left to the recovery pass (app/services/alerts/recovery.server.ts), which queues every
 * pending alert Redis does not hold.
 */
export async function enqueueAlerts(requests: readonly AlertRequest[], sink = defaultSink()) {
  const channels = enabledChannels(sink.channels)
  if (channels.length === 0 || requests.length === 0) return 0
  const queuedAt = Date.now()
  const people = [...new Set(requests.map((request) => request.userId))]
  const jobs: AlertJob[] = []
  for (const channel of channels) {
    const reachable = await channel.reachable(people)
    for (const request of requests)
      if (reachable.has(request.userId))
        jobs.push({ ...request, channel: channel.name, attempt: 0, queuedAt })
  }
  const fresh = await recordPending(jobs)
  try {
    return await queueJobs(sink.redis, sink.keys, fresh)
  } catch (error) {
    log.warn('alerts recorded, not queued yet', { ...errorFields(error), count: fresh.length })
    return 0
  }
}

/**
 * Queues alerts a business step produced after it was saved (a payment credited, an order
 * shipped): a failure to record them is logged, never undoes the step.
 */
export function alertAfter(requests: readonly AlertRequest[]) {
  return enqueueAlerts(requests).catch((error: unknown) => {
    log.warn('alerts not queued', { ...errorFields(error), keys: requests.map((r) => r.key) })
    return 0
  })
}
