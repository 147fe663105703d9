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

/** A gauge whose value is read when Prometheus scrapes. */
export function gaugeFrom(name: string, help: string, read: () => Promise<number> | number) {
  return metric(
    name,
    () =>
      new Gauge({
        name,
        help,
        async collect() {
          this.set(await read())
        },
      }),
  )
}

export { register as metricsRegistry }
