// What the fan-out benchmark (bench/fanout.ts) reports: a round's figures and the table of
// all rounds.
import type { ClientReport } from './fanout-client.ts'
import { fmt, percentile } from './support.ts'
import type { Viewers } from './viewers.ts'

export const GOAL_P99_MS = 250
export const GOAL_KB_PER_CONNECTION = 40

/** The bids of a round: accepted ones as `auctionId price` keys, refusals by reason. */
export type Bidding = {
  accepted: string[]
  refused: Record<string, number>
  noneFree: number
  elapsed: number
}

export type Round = ReturnType<typeof summarize>

export function summarize(input: {
  clients: number
  viewers: Viewers
  reports: ClientReport[]
  bidding: Bidding
  before: { rss: number; heap: number }
  after: { rss: number; heap: number; sockets: number[] }
  clock: { rtt: number; offset: number }
  serverCpu: number
  clientCpu: number
  serverLoop: { p99: number; max: number }
}) {
  const { viewers, reports, bidding } = input
  const sorted = (pick: (r: ClientReport) => number[]) =>
    reports.flatMap(pick).sort((a, b) => a - b)
  const latencies = sorted((r) => r.latencies)
  // Latency by when in the 1 Hz timer broadcast's cycle the bid was accepted, 100 ms bins.
  const byPhase = Array.from({ length: 10 }, () => [] as number[])
  for (const report of reports)
    report.phases.forEach((phase, i) => {
      if (phase >= 0) byPhase[Math.floor(phase / 100)]!.push(report.latencies[i]!)
    })
  const building = sorted((r) => r.building)
  const transit = sorted((r) => r.transit)

  // Each accepted bid should reach every viewer of its auction, once.
  const seen = new Map<string, [number, number, number]>()
  for (const report of reports) {
    for (const [key, [count, first, last]] of Object.entries(report.bids)) {
      const merged = seen.get(key)
      if (merged) {
        merged[0] += count
        merged[1] = Math.min(merged[1], first)
        merged[2] = Math.max(merged[2], last)
      } else seen.set(key, [count, first, last])
    }
  }
  let expected = 0
  let received = 0
  const spread: number[] = []
  for (const key of bidding.accepted) {
    expected += viewers.rooms.get(key.split(' ')[0]!) ?? 0
    const merged = seen.get(key)
    if (!merged) continue
    received += merged[0]
    spread.push(merged[2] - merged[1])
  }
  spread.sort((a, b) => a - b)
  const acceptedKeys = new Set(bidding.accepted)
  const unexpected = [...seen.keys()].filter((key) => !acceptedKeys.has(key)).length
  const disconnects: Record<string, number> = {}
  for (const report of reports)
    for (const [reason, n] of Object.entries(report.disconnects))
      disconnects[reason] = (disconnects[reason] ?? 0) + n
  const joined = viewers.joined
  const perConnection = (a: number, b: number) => (joined ? (b - a) / joined / 1024 : 0)
  const p99 = percentile(latencies, 99)
  const disconnected = Object.values(disconnects).reduce((sum, n) => sum + n, 0)
  return {
    clients: input.clients,
    joined,
    connectMs: viewers.connectMs,
    connectErrors: viewers.errors,
    latency: {
      p50: percentile(latencies, 50),
      p99,
      max: latencies.at(-1) ?? 0,
    },
    building: { p50: percentile(building, 50), p99: percentile(building, 99) },
    transit: { p50: percentile(transit, 50), p99: percentile(transit, 99) },
    spread: { p50: percentile(spread, 50), p99: percentile(spread, 99) },
    // A bin with no bid at all says something too: nothing was accepted then.
    phaseP99: byPhase.map((bin) =>
      bin.length
        ? percentile(
            bin.sort((a, b) => a - b),
            99,
          )
        : null,
    ),
    accepted: bidding.accepted.length,
    acceptedRate: bidding.accepted.length / bidding.elapsed,
    refused: bidding.refused,
    noneFree: bidding.noneFree,
    expected,
    received,
    unexpected,
    bidUpdates: reports.reduce((sum, r) => sum + r.bidUpdates, 0),
    disconnects,
    rssPerConnectionKb: perConnection(input.before.rss, input.after.rss),
    heapPerConnectionKb: perConnection(input.before.heap, input.after.heap),
    rssAfter: input.after.rss,
    socketsPerInstance: input.after.sockets,
    serverLoop: input.serverLoop,
    clock: input.clock,
    serverCpuPercent: (100 * input.serverCpu) / (bidding.elapsed * 1000),
    clientCpuPercent: (100 * input.clientCpu) / (bidding.elapsed * 1000),
    clientLoopDelayP99: Math.max(0, ...reports.map((r) => r.eventLoopDelay.p99)),
    held:
      joined === input.clients &&
      disconnected === 0 &&
      received === expected &&
      expected > 0 &&
      p99 <= GOAL_P99_MS,
  }
}

const ms = (n: number) => `${fmt(n, n < 10 ? 1 : 0)} ms`
const json = (o: Record<string, number>) => (Object.keys(o).length ? JSON.stringify(o) : 'none')

export function describeRound(
  round: Round,
  instances: number,
  { viaProxy, auctionCount }: { viaProxy: boolean; auctionCount: number },
) {
  const pct = round.expected ? (100 * round.received) / round.expected : 0
  const line = (label: string, figure: string, goal = '') =>
    `${label.padEnd(40)}${goal ? `${figure.padEnd(44)}${goal}` : figure}`
  return [
    '',
    `${fmt(round.clients)} viewers, ${instances} instance${instances > 1 ? 's' : ''}${instances > 1 ? (viaProxy ? ' via the proxy' : ', split directly') : ''}, ${auctionCount} auctions:`,
    line(
      'connected and joined',
      `${fmt(round.joined)} of ${fmt(round.clients)} in ${fmt(round.connectMs / 1000, 1)} s; errors ${json(round.connectErrors)}${instances > 1 ? `; sockets per instance ${round.socketsPerInstance.map((n) => fmt(n)).join(' / ')}` : ''}`,
    ),
    line(
      'bids accepted',
      `${fmt(round.accepted)} (${fmt(round.acceptedRate, 1)}/s); refused ${json(round.refused)}${round.noneFree ? `; ${round.noneFree} ticks with nobody free` : ''}`,
    ),
    line(
      'delivery latency p50 / p99 / max',
      `${ms(round.latency.p50)} / ${ms(round.latency.p99)} / ${ms(round.latency.max)}`,
      `goal p99 <= ${GOAL_P99_MS} ms`,
    ),
    line(
      '  acceptance -> update built',
      `p50 ${ms(round.building.p50)}  p99 ${ms(round.building.p99)}`,
    ),
    line(
      '  update built -> received',
      `p50 ${ms(round.transit.p50)}  p99 ${ms(round.transit.p99)}`,
    ),
    line(
      '  p99 by time since timerUpdate',
      `${round.phaseP99.map((p, i) => `${i * 100}+: ${p === null ? 'none' : fmt(p)}`).join(', ')} ms`,
    ),
    line(
      '  first -> last viewer of a bid',
      `p50 ${ms(round.spread.p50)}  p99 ${ms(round.spread.p99)}`,
    ),
    line(
      'bid deliveries received / expected',
      `${fmt(round.received)} / ${fmt(round.expected)} (${fmt(pct, 2)} %)${round.unexpected ? `; ${round.unexpected} unknown bids` : ''}`,
      'goal 100 %',
    ),
    line('live auctionUpdate messages with bids', fmt(round.bidUpdates)),
    line('disconnects during the run', json(round.disconnects), 'goal none'),
    line(
      'server memory per idle connection',
      `RSS ${fmt(round.rssPerConnectionKb, 1)} KB, heap ${fmt(round.heapPerConnectionKb, 1)} KB (RSS ${fmt(round.rssAfter / 2 ** 20)} MiB)`,
      `goal <= ${GOAL_KB_PER_CONNECTION} KB`,
    ),
    line(
      instances > 1 ? 'servers while bidding' : 'server while bidding',
      `CPU ${fmt(round.serverCpuPercent)} % of one core${instances > 1 ? ' (all together)' : ''}; event loop delay p99 ${ms(round.serverLoop.p99)}, max ${ms(round.serverLoop.max)}`,
    ),
    line(
      'viewer processes while bidding',
      `CPU ${fmt(round.clientCpuPercent)} % of one core; event loop delay p99 ${ms(round.clientLoopDelayP99)} (worst process)`,
    ),
    line(
      'clock: Redis TIME - local',
      `${fmt(round.clock.offset, 2)} ms (round trip ${fmt(round.clock.rtt, 2)} ms)`,
    ),
    line('result', round.held ? 'held' : 'did not hold'),
  ].join('\n')
}

export function summaryTable(rows: Array<Round & { instances: number }>) {
  const head = [
    'instances',
    'viewers',
    'joined',
    'p50 ms',
    'p99 ms',
    'max ms',
    'delivered',
    'RSS KB/conn',
    'heap KB/conn',
    'server CPU',
    'held',
  ]
  const body = rows.map((r) => [
    String(r.instances),
    fmt(r.clients),
    fmt(r.joined),
    fmt(r.latency.p50, 1),
    fmt(r.latency.p99, 1),
    fmt(r.latency.max),
    `${fmt(r.expected ? (100 * r.received) / r.expected : 0, 2)} %`,
    fmt(r.rssPerConnectionKb, 1),
    fmt(r.heapPerConnectionKb, 1),
    `${fmt(r.serverCpuPercent)} %`,
    r.held ? 'yes' : 'no',
  ])
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)))
  const format = (row: string[]) => row.map((cell, i) => cell.padStart(widths[i]!)).join('  ')
  return [
    '',
    `goals: p99 <= ${GOAL_P99_MS} ms, every bid to every viewer, <= ${GOAL_KB_PER_CONNECTION} KB per idle connection`,
    format(head),
    ...body.map(format),
  ].join('\n')
}
