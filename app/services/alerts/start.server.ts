import { hostname } from 'node:os'
import type { Engine, OutboxWorker } from '../../../engine/index.ts'
import { enabledChannels } from '~/services/alerts/channels.server.ts'
import { alertsOfBatches } from '~/services/alerts/from-outbox.server.ts'
import { showAlertQueueMetrics } from '~/services/alerts/metrics.server.ts'
import { AlertQueue, DEFAULT_ALERT_POLICY } from '~/services/alerts/queue.server.ts'
import { AlertScheduler } from '~/services/alerts/scheduler.server.ts'
import { getEnv } from '~/utils/env.server.ts'

/**
 * Started by server.ts through app/entry.server.tsx: the queue's consumer on every instance,
 * one lane per channel (each read by its own loop), the alerts from the outbox's written
 * batches, the lanes' gauges on /metrics, and on the lease holder the clock's alerts and the
 * recovery pass.
 * Nothing runs while the site has no alert channel.
 */
export function startAlerts(engine: Engine, outbox: OutboxWorker): { stop(): Promise<void> } {
  const channels = enabledChannels()
  if (channels.length === 0) return { stop: async () => {} }
  const prefix = getEnv().REDIS_PREFIX
  outbox.onWritten(alertsOfBatches({ redis: engine.redis, prefix }))
  const queue = new AlertQueue({
    ...DEFAULT_ALERT_POLICY,
    redis: engine.redis,
    prefix,
    channels,
    consumer: `${hostname()}-${process.pid}`,
  })
  queue.start()
  showAlertQueueMetrics(
    engine.redis,
    prefix,
    channels.map((channel) => channel.name),
  )
  const scheduler = new AlertScheduler().followLease(engine)
  return {
    async stop() {
      scheduler.stop()
      await queue.stop()
    },
  }
}
