import { Counter, Gauge, Histogram, register, type Metric } from 'prom-client'

// Prometheus metrics, served on /metrics (server/metrics.ts). The server entry and the Remix
// build each bundle this module, but prom-client is one package with one registry: a metric is
// created once and found by name after that.

function metric<T extends Metric>(name: string, create: () => T): T {
  return (register.getSingleMetric(name) as T | undefined) ?? create()
}

export const bidsAccepted = metric(
  'pa_bids_accepted_total',
  () =>
    new Counter({
      name: 'pa_bids_accepted_total',
      help: 'Bids accepted by the engine on this instance, by who placed them',
      labelNames: ['bidder'] as const,
    }),
)

export const bidsRejected = metric(
  'pa_bids_rejected_total',
  () =>
    new Counter({
      name: 'pa_bids_rejected_total',
      help: 'Bids and prebids refused, by kind and reason',
      labelNames: ['kind', 'reason'] as const,
    }),
)

export const httpDuration = metric(
  'pa_http_request_duration_seconds',
  () =>
    new Histogram({
      name: 'pa_http_request_duration_seconds',
      help: 'HTTP request latency by area (api, page, asset), method and status',
      labelNames: ['area', 'method', 'status'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    }),
)

/** A counter per alert channel, counted by this instance (docs/operations.md#the-alert-queue). */
const channelCounter = (name: string, help: string) =>
  metric(name, () => new Counter({ name, help, labelNames: ['channel'] as const }))

export const alertsSent = channelCounter(
  'pa_alerts_sent_total',
  'Alerts the provider took, by channel (this instance)',
)
export const alertRetries = channelCounter(
  'pa_alert_retries_total',
  'Failed alert attempts that will be tried again, by channel (this instance)',
)
export const alertDeadLetters = channelCounter(
  'pa_alert_dead_letters_total',
  'Alerts given up as dead letters, by channel (this instance)',
)

/**
 * A gauge with labels whose values are read when Prometheus scrapes: `read` answers each
 * label set's value.
 */
export function labelledGaugeFrom<L extends string>(
  name: string,
  help: string,
  labelNames: readonly L[],
  read: () => Promise<Array<{ labels: Record<L, string>; value: number }>>,
) {
  return metric(
    name,
    () =>
      new Gauge({
        name,
        help,
        labelNames,
        async collect() {
          this.reset()
          for (const { labels, value } of await read()) this.set(labels, value)
        },
      }),
  )
}

/** A gauge whose value is read when Prometheus scrapes. */
export function gaugeFrom(name: string, help: string, read: () => Promise<number> | number) {
  return labelledGaugeFrom(name, help, [], async () => [{ labels: {}, value: await read() }])
}

export { register as metricsRegistry }
