import type { Redis } from 'ioredis'
import type { AlertChannel, AlertKind } from '~/services/alerts/channel.server.ts'
import { alertChannels, enabledChannels } from '~/services/alerts/channels.server.ts'
import {
  alertQueueKeys,
  queueJob,
  type AlertQueueKeys,
} from '~/services/alerts/queue-keys.server.ts'
import { errorFields, log } from '~/services/logger.server.ts'
import { getRedis } from '~/services/redis.server.ts'
import { getEnv } from '~/utils/env.server.ts'

// Alerts onto the queue (app/services/alerts/queue.server.ts): one job per enabled channel,
// each key queued once.

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

/** Queues the alerts; the number of jobs queued (repeats of a queued key are not). */
export async function enqueueAlerts(requests: readonly AlertRequest[], sink = defaultSink()) {
  const channels = enabledChannels(sink.channels)
  if (channels.length === 0 || requests.length === 0) return 0
  const queuedAt = Date.now()
  let queued = 0
  for (const request of requests) {
    for (const channel of channels) {
      const job = { ...request, channel: channel.name, attempt: 0, queuedAt }
      if (await queueJob(sink.redis, sink.keys, job)) queued++
    }
  }
  return queued
}

/**
 * Queues alerts a business step produced after it was saved (a payment credited, an order
 * shipped): a failure to queue is logged, never undoes the step.
 */
export function alertAfter(requests: readonly AlertRequest[]) {
  return enqueueAlerts(requests).catch((error: unknown) => {
    log.warn('alerts not queued', { ...errorFields(error), keys: requests.map((r) => r.key) })
    return 0
  })
}
