import { pendingJobs } from '~/services/alerts/deliveries.server.ts'
import { defaultSink, type AlertSink } from '~/services/alerts/enqueue.server.ts'
import { enabledChannels } from '~/services/alerts/channels.server.ts'
import { queueJobs } from '~/services/alerts/queue-keys.server.ts'

// The recovery pass (docs/decisions/064-alerts-recorded-before-queued.md): Postgres is the record
// of the alerts, Redis only carries them. Every alert still pending in Postgres whose marker is
// not in Redis (Redis lost its data, its keys were deleted, or queueing failed after the alert
// was recorded) is queued again. An alert Redis still holds keeps its marker and is left alone,
// so the pass can run at any time; the row's status keeps an alert sent meanwhile from being
// sent again. Run by the lease holder at its start and every minute
// (app/services/alerts/scheduler.server.ts).

/** Queues again the pending alerts Redis does not hold; the number queued. */
export async function requeuePending(sink: AlertSink = defaultSink()): Promise<number> {
  const channels = enabledChannels(sink.channels).map((channel) => channel.name)
  if (channels.length === 0) return 0
  let queued = 0
  for await (const jobs of pendingJobs(channels))
    queued += await queueJobs(sink.redis, sink.keys, jobs)
  return queued
}
