// The benchmarks' load generator, run in a child process of its own so it never shares an event
// loop with the benchmark's bookkeeping or the server: keep-alive connections, and either
// bidders on a schedule (open loop: each user bids every `periodMs` on the next auction in turn,
// never sooner than `minGapMs` after its previous answer, so the 1 s rule is never what refuses
// a bid) or a fixed number of requests back to back (closed loop, for pages and capacity).
import { fork } from 'node:child_process'
import { fmt, percentile } from './support.ts'

export type BidAuction = { id: string; slug: string }

/**
 * What a response counts as: `bid` reads the bid's answer (JSON from the API; the toast cookie
 * of the page action's redirect); `ok` counts any 2xx as done and anything else by status.
 */
export type Expect = 'bid' | 'ok'

export type BidLoad = {
  mode: 'bids'
  /** Signed session cookies (`name=value`), one bidder each. */
  cookies: string[]
  auctions: BidAuction[]
  /**
   * `api`: POST /api/auctions/{id}/bid; `form`: the bid button's form without JavaScript;
   * `fetcher`: the same button with JavaScript (a fetcher's post, Remix's data request).
   */
  via: 'api' | 'form' | 'fetcher'
  periodMs: number
  minGapMs: number
  /** Bidder i's turn k goes to auction (i + k + turnOffset) mod auctions. */
  turnOffset?: number
}

export type PageLoad = {
  mode: 'pages'
  paths: string[]
  headers?: Record<string, string>
  /** Session cookies: each request loop is one of these people, logged in. */
  cookies?: string[]
}

export type LoadSpec = (BidLoad | PageLoad) & {
  /** Servers' origins; bidder i (or loop i) always uses targets[i mod targets]. */
  targets: string[]
  expect: Expect
  /** Sockets in all, spread over the targets; for pages also the number of loops. */
  concurrency: number
  warmupSeconds: number
  seconds: number
}

export type LoadReport = {
  /** The measured window, after the warm-up. */
  seconds: number
  /** Bids: what the schedule asks for per second. Pages: 0. */
  offered: number
  /** Requests sent in the window. */
  sent: number
  /** Answers received in the window. */
  answered: number
  /** Answers received in the whole run, warm-up and stragglers included. */
  answeredAll: number
  /** Of those, accepted bids (or 2xx answers). */
  acceptedAll: number
  /** Accepted bids, or 2xx answers. */
  accepted: number
  /** Everything else by `status reason`. */
  outcomes: Record<string, number>
  /** Of the answers in the window, ms, ascending. */
  latencies: number[]
  /** How late sends left against their schedule (bids), ms, ascending. */
  lags: number[]
  /** Body bytes received in the window. */
  bytes: number
  /** CPU the generator itself used in the window, ms. */
  cpuMs: number
}

/** Runs one load in a child process and resolves with its report. */
export function runLoad(spec: LoadSpec): Promise<LoadReport> {
  return new Promise((resolve, reject) => {
    const child = fork(new URL('./load-worker.ts', import.meta.url), {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    })
    let report: LoadReport | undefined
    child.once('message', (message) => {
      report = message as LoadReport
      child.disconnect()
    })
    child.once('error', reject)
    child.once('exit', (code) => {
      if (report) resolve(report)
      else reject(new Error(`load generator exited (code ${code}) without a report`))
    })
    child.send(spec)
  })
}

/** Bidders needed for `ratePerSecond` bids a second when each bids every `periodMs`. */
export const biddersFor = (ratePerSecond: number, periodMs: number) =>
  Math.ceil((ratePerSecond * periodMs) / 1000)

const ms = (n: number) => `${fmt(n, n < 10 ? 1 : 0)} ms`

/** `p50 … p99 …` of a report's latencies. */
export function latencyText(report: LoadReport) {
  const sorted = report.latencies
  if (sorted.length === 0) return 'no answer within the window'
  return `p50 ${ms(percentile(sorted, 50))}  p99 ${ms(percentile(sorted, 99))}`
}

/** Rejects and failures, largest first, one short line. */
export function outcomeText(report: LoadReport) {
  const rows = Object.entries(report.outcomes).sort((a, b) => b[1] - a[1])
  if (rows.length === 0) return 'none'
  return rows.map(([reason, count]) => `${fmt(count)}× ${reason}`).join('; ')
}

export const perSecond = (count: number, report: LoadReport) => count / report.seconds
