// Real-time fan-out of the production server: N Socket.IO viewers (in child processes, ~1,250
// sockets each) follow 100 live auctions, bids come in through the HTTP API at a steady rate,
// and every viewer records how long after the bid's acceptance (its Redis time, in the update's
// newest bids) the update reached it. Also the server's memory per idle connection, the
// largest audience that still holds the goal, and several instances sharing rooms through the
// Redis adapter.
//   npm run bench:fanout [-- --clients 5000 --rate 50 --seconds 10]
//   --find-max [--steps 5000,7500,...] [--resolution 1000] [--budget-minutes 20]  step the
//       audience up until it fails, then halve the gap between the last that held and the first
//       that failed down to --resolution viewers
//   --instances 2 (or 1,2 for both in one run) [--via direct|proxy]  viewers split over the
//       instances directly, or through bench/proxy.ts
//   --profile DIR  a CPU profile of each server while bids come in, summarized here
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { type Redis } from 'ioredis'
import { createRedis, Engine } from '../engine/index.ts'
import { ensureServices } from '../scripts/services.ts'
import {
  createAuctions,
  createPeople,
  createScenario,
  deleteKeys,
  metrics,
  sleep,
  startApp,
  waitFor,
  type App,
  type Person,
} from '../tests/setup/stack.ts'
import type { ClientReport } from './fanout-client.ts'
import { describeProfile } from './cpu-profile.ts'
import { fmt, percentile } from './support.ts'
import {
  connectViewers,
  forkScript,
  nextMessage,
  processStats,
  stopChild,
  type Viewers,
} from './viewers.ts'

const { values } = parseArgs({
  options: {
    clients: { type: 'string', default: '5000' },
    rate: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '10' },
    auctions: { type: 'string', default: '100' },
    'per-process': { type: 'string', default: '1250' },
    concurrency: { type: 'string', default: '200' },
    instances: { type: 'string', default: '1' },
    via: { type: 'string', default: 'direct' },
    'find-max': { type: 'boolean', default: false },
    steps: { type: 'string', default: '5000,7500,10000,15000,20000,30000,40000' },
    resolution: { type: 'string', default: '1000' },
    'budget-minutes': { type: 'string', default: '20' },
    profile: { type: 'string' },
  },
})
const GOAL_P99_MS = 250
const GOAL_KB_PER_CONNECTION = 40
const rate = Number(values.rate)
const seconds = Number(values.seconds)
const auctionCount = Number(values.auctions)
const perProcess = Number(values['per-process'])
const concurrency = Number(values.concurrency)
const instanceCounts = values.instances.split(',').map(Number)
const viaProxy = values.via === 'proxy'
const findMax = values['find-max']
const budgetMs = Number(values['budget-minutes']) * 60_000
const resolution = Number(values.resolution)
const profileDir = values.profile ? path.resolve(values.profile) : undefined
if (
  ![rate, seconds, auctionCount, perProcess, concurrency, resolution, ...instanceCounts].every(
    (n) => n > 0,
  )
)
  throw new Error(
    '--rate, --seconds, --auctions, --per-process, --concurrency, --resolution and --instances must be positive',
  )
if (!['direct', 'proxy'].includes(values.via)) throw new Error('--via is direct or proxy')

const say = (line: string) => process.stdout.write(`${line}\n`)
const here = import.meta.dirname
/** Wall-clock ms with sub-ms precision, as the viewer processes read it. */
const wallMs = () => performance.timeOrigin + performance.now()

// --- processes --------------------------------------------------------------------------------

/** The open-file limit this process and its children run with (the server's too). */
function openFileLimit() {
  const out = spawnSync('bash', ['-c', 'ulimit -n'], { encoding: 'utf8' }).stdout.trim()
  return out === 'unlimited' ? Infinity : Number(out)
}

async function startProxyProcess(targets: string[]) {
  const child = forkScript('proxy-process.ts', targets)
  const { url } = await nextMessage<{ type?: string; url: string }>(child)
  return { url, child, stop: () => stopChild(child) }
}

// --- server profiles --------------------------------------------------------------------------

const profilerEnv = (dir: string) => ({
  NODE_OPTIONS: `--import ${pathToFileURL(path.join(here, 'server-profiler.mjs')).href}`,
  BENCH_PROFILE_DIR: dir,
})
const profilesTaken = new Map<number, number>()

/** Starts the CPU profiler in a server; the function returned stops it and gives the file. */
function startProfile(app: App) {
  const pid = app.child.pid!
  const n = (profilesTaken.get(pid) ?? 0) + 1
  profilesTaken.set(pid, n)
  app.child.kill('SIGUSR2')
  return async () => {
    app.child.kill('SIGUSR2')
    const file = path.join(profileDir!, `server-${pid}-${n}.cpuprofile`)
    await waitFor(`the profile ${file}`, async () => existsSync(file), 30_000, 200)
    // Written in one call, but give the write a moment to finish.
    await sleep(500)
    return file
  }
}

// --- bids -------------------------------------------------------------------------------------

type BidAnswer = { ok?: boolean; error?: string; currentPrice?: number }

/**
 * Bids at a steady `rate` for `seconds`, auctions in turn, each from a person who is free: not
 * waiting on an answer, past the 1 s rule since their last one, and not leading that auction.
 * Requests alternate over the targets. Returns the accepted bids as `auctionId price` keys.
 */
async function bidSteadily(targets: string[], people: Person[], auctions: string[]) {
  const free = people.map((person) => ({ person, from: 0 }))
  const leaders = new Map<string, Person>()
  const accepted: string[] = []
  const refused: Record<string, number> = {}
  const pending = new Set<Promise<void>>()
  let noneFree = 0
  const began = performance.now()
  const total = Math.floor(rate * seconds)
  for (let tick = 0; tick < total; tick++) {
    await sleep(began + (tick * 1000) / rate - performance.now())
    const auctionId = auctions[tick % auctions.length]!
    const now = performance.now()
    const slot = free.findIndex((f) => f.from <= now && leaders.get(auctionId) !== f.person)
    if (slot < 0) {
      noneFree++
      continue
    }
    const { person } = free.splice(slot, 1)[0]!
    const target = targets[tick % targets.length]!
    const request = fetch(`${target}/api/auctions/${auctionId}/bid`, {
      method: 'POST',
      headers: { Cookie: person.cookie, Origin: target, 'Accept-Language': 'en' },
    })
      .then(async (response) => {
        const body = (await response.json().catch(() => ({}))) as BidAnswer
        if (body.ok && body.currentPrice !== undefined) {
          accepted.push(`${auctionId} ${body.currentPrice}`)
          leaders.set(auctionId, person)
        } else {
          const key = `${response.status} ${body.error ?? ''}`.trim()
          refused[key] = (refused[key] ?? 0) + 1
        }
      })
      .catch(() => {
        refused.network = (refused.network ?? 0) + 1
      })
      .finally(() => {
        // The 1 s rule counts from acceptance, which is before the answer: waiting from the
        // answer keeps every bid legal however slow the answers are.
        free.push({ person, from: performance.now() + 1_050 })
        pending.delete(request)
      })
    pending.add(request)
  }
  await Promise.all(pending)
  return { accepted, refused, noneFree, elapsed: (performance.now() - began) / 1000 }
}

// --- one round --------------------------------------------------------------------------------

type Round = Awaited<ReturnType<typeof runRound>>

/** Redis TIME minus this machine's wall clock, from the sample with the shortest round trip. */
async function clockOffset(redis: Redis) {
  let best = { rtt: Infinity, offset: 0 }
  for (let i = 0; i < 7; i++) {
    const t0 = wallMs()
    const [secondsPart, micros] = await redis.time()
    const t1 = wallMs()
    const server = Number(secondsPart) * 1000 + Number(micros) / 1000
    if (t1 - t0 < best.rtt) best = { rtt: t1 - t0, offset: server - (t0 + t1) / 2 }
  }
  return best
}

const HEAP = 'pa_nodejs_heap_size_used_bytes'
const SOCKETS = 'pa_sockets'
const LOOP_P99 = 'pa_nodejs_eventloop_lag_p99_seconds'
const LOOP_MAX = 'pa_nodejs_eventloop_lag_max_seconds'

/** Each instance's gauges, in one read (which also starts its event loop lag afresh). */
const readGauges = (apps: App[]) =>
  Promise.all(apps.map((app) => metrics(app, [HEAP, SOCKETS, LOOP_P99, LOOP_MAX])))

/** Server memory now (resident set and V8 heap used, summed) and sockets per instance. */
async function serverMemory(apps: App[]) {
  // Three readings a second apart; the smallest heap is the nearest to what is live.
  let rss = 0
  let heap = Infinity
  let sockets: number[] = []
  for (let i = 0; i < 3; i++) {
    if (i) await sleep(1_000)
    rss = apps.reduce((sum, app) => sum + processStats(app.child.pid!).rss, 0)
    const gauges = await readGauges(apps)
    heap = Math.min(
      heap,
      gauges.reduce((sum, g) => sum + (g[HEAP] ?? NaN), 0),
    )
    sockets = gauges.map((g) => g[SOCKETS] ?? NaN)
  }
  return { rss, heap, sockets }
}

/** What every round shares: the scenario's database and keys, its bidders, an engine on them. */
type Setup = {
  scenario: Awaited<ReturnType<typeof createScenario>>
  redisUrl: string
  redis: Redis
  engine: Engine
  people: Person[]
}

type Stack = Setup & {
  apps: App[]
  /** Where viewers connect: the instances, or the proxy in front of them. */
  viewerTargets: string[]
  stop: () => Promise<void>
}

/** Fresh server instances (behind the proxy with --via proxy) for one round. */
async function startStack(setup: Setup, instances: number): Promise<Stack> {
  const apps: App[] = []
  let proxy: Awaited<ReturnType<typeof startProxyProcess>> | undefined
  const stop = async () => {
    await proxy?.stop()
    for (const app of apps) await app.stop()
  }
  try {
    for (let i = 0; i < instances; i++) {
      apps.push(
        await startApp({
          databaseUrl: setup.scenario.databaseUrl,
          redisUrl: setup.redisUrl,
          prefix: setup.scenario.prefix,
          label: `web${i + 1}`,
          env: profileDir ? profilerEnv(profileDir) : {},
        }),
      )
    }
    if (viaProxy && instances > 1) proxy = await startProxyProcess(apps.map((app) => app.url))
  } catch (error) {
    await stop()
    throw error
  }
  const viewerTargets = proxy ? [proxy.url] : apps.map((app) => app.url)
  return { ...setup, apps, viewerTargets, stop }
}

/** Auctions that open when told: far in the future until `open()` moves their start to now. */
async function freshAuctions(stack: Stack) {
  const ids = await createAuctions(stack.scenario.prisma, auctionCount, 60 * 60 * 1000)
  for (const id of ids) await stack.engine.loadAuction(id)
  return {
    ids,
    async open() {
      // What an admin's edit of the start time does: Postgres, then the engine's copy.
      await stack.scenario.prisma.auction.updateMany({
        where: { id: { in: ids } },
        data: { startTime: new Date(Date.now() + 500) },
      })
      for (const id of ids) await stack.engine.loadAuction(id)
      await waitFor(
        'the auctions to go live',
        async () => (await stack.engine.getStates(ids)).every((s) => s?.status === 'live'),
        15_000,
        100,
      )
    },
  }
}

async function runRound(stack: Stack, clients: number) {
  const { apps } = stack
  const auctions = await freshAuctions(stack)
  await sleep(2_000)
  const before = await serverMemory(apps)
  say(`  connecting ${fmt(clients)} viewers...`)
  let viewers: Viewers | undefined
  try {
    viewers = await connectViewers(clients, stack.viewerTargets, auctions.ids, {
      perProcess,
      concurrency,
    })
    say(
      `  ${fmt(viewers.joined)} joined in ${fmt(viewers.connectMs / 1000, 1)} s; measuring idle memory...`,
    )
    await sleep(2_000)
    const after = await serverMemory(apps)
    await auctions.open()
    await sleep(1_000)
    const clock = await clockOffset(stack.redis)

    say(`  bidding at ${rate}/s for ${seconds} s...`)
    const serverCpu0 = apps.reduce((sum, app) => sum + processStats(app.child.pid!).cpuMs, 0)
    const clientCpu0 = viewers.cpuMs()
    await readGauges(apps)
    const profiles = profileDir ? apps.map(startProfile) : []
    const bidding = await bidSteadily(
      apps.map((app) => app.url),
      stack.people,
      auctions.ids,
    )
    const profileFiles = await Promise.all(profiles.map((stop) => stop()))
    const serverCpu =
      apps.reduce((sum, app) => sum + processStats(app.child.pid!).cpuMs, 0) - serverCpu0
    const clientCpu = viewers.cpuMs() - clientCpu0
    const loop = await readGauges(apps)
    const serverLoop = {
      p99: Math.max(...loop.map((g) => (g[LOOP_P99] ?? NaN) * 1000)),
      max: Math.max(...loop.map((g) => (g[LOOP_MAX] ?? NaN) * 1000)),
    }
    // Whatever is still on its way.
    await sleep(3_000)
    const reports = await viewers.reports()
    for (const file of profileFiles) say(`\nserver profile while bidding: ${describeProfile(file)}`)
    return summarize({
      clients,
      viewers,
      reports,
      bidding,
      before,
      after,
      clock,
      serverCpu,
      clientCpu,
      serverLoop,
    })
  } finally {
    await viewers?.close()
  }
}

function summarize(input: {
  clients: number
  viewers: Viewers
  reports: ClientReport[]
  bidding: Awaited<ReturnType<typeof bidSteadily>>
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

// --- output -----------------------------------------------------------------------------------

const ms = (n: number) => `${fmt(n, n < 10 ? 1 : 0)} ms`
const json = (o: Record<string, number>) => (Object.keys(o).length ? JSON.stringify(o) : 'none')

function describeRound(round: Round, instances: number) {
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

function summaryTable(rows: Array<Round & { instances: number }>) {
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

// --- the run ----------------------------------------------------------------------------------

/** The audiences to try: one, or the steps up to what the open-file limit allows. */
function audiences(instances: number, limit: number) {
  const wanted = findMax ? values.steps.split(',').map(Number) : [Number(values.clients)]
  // Each server holds one descriptor per viewer (the proxy two), besides its own few hundred.
  const perViewer = viaProxy && instances > 1 ? 2 : 1 / instances
  const cap = Math.floor((limit - 400) / perViewer / 500) * 500
  const steps = wanted.filter((n) => n <= cap)
  if (steps.length < wanted.length && findMax && !steps.includes(cap)) steps.push(cap)
  return { steps, cap }
}

const began = Date.now()
const limit = openFileLimit()
const services = await ensureServices()
const scenario = await createScenario('fanout', services.DATABASE_URL)
const redis = createRedis(services.REDIS_URL)
const rows: Array<Round & { instances: number }> = []
const notes: string[] = []
try {
  // A person is busy for the answer plus the 1 s rule: enough for answers of up to 3 s.
  const peopleCount = Math.ceil(rate * 4.1) + 10
  say(`open-file limit ${limit}; setting up ${peopleCount} bidders...`)
  const people = await createPeople(scenario.prisma, peopleCount)
  const engine = new Engine({ redis, prisma: scenario.prisma, prefix: scenario.prefix })
  await engine.loadScripts()
  const setup: Setup = { scenario, redisUrl: services.REDIS_URL, redis, engine, people }
  if (profileDir) mkdirSync(profileDir, { recursive: true })

  for (const instances of instanceCounts) {
    const { steps, cap } = audiences(instances, limit)
    if (cap < Math.max(...steps, Number(values.clients)))
      notes.push(
        `${instances} instance(s): audiences capped at ${fmt(cap)} by the open-file limit ${limit}`,
      )
    let largest = 0
    let smallestFailed = Infinity
    let stopped = false
    const overBudget = () => {
      if (stopped || !findMax || !rows.length || Date.now() - began <= budgetMs) return stopped
      notes.push(`stopped stepping after ${values['budget-minutes']} minutes (--budget-minutes)`)
      return (stopped = true)
    }
    const tryAudience = async (clients: number) => {
      say(`\n${instances} instance(s), ${fmt(clients)} viewers:`)
      // Each round on fresh servers: nothing left over from the last one in their memory.
      const stack = await startStack(setup, instances)
      const round = await runRound(stack, clients).finally(stack.stop)
      rows.push({ ...round, instances })
      say(describeRound(round, instances))
      if (round.held) largest = Math.max(largest, clients)
      else smallestFailed = Math.min(smallestFailed, clients)
      return round.held
    }
    for (const clients of steps) {
      if (overBudget()) break
      if (!(await tryAudience(clients))) break
    }
    // Between the last step that held and the first that did not: halve the gap.
    while (findMax && largest && smallestFailed - largest > resolution && !overBudget()) {
      const middle = Math.round((largest + smallestFailed) / 2 / 100) * 100
      if (middle <= largest || middle >= smallestFailed) break
      await tryAudience(middle)
    }
    if (findMax)
      notes.push(
        `${instances} instance(s): largest audience that held: ${largest ? fmt(largest) : 'none tried held'}${smallestFailed < Infinity ? `; ${fmt(smallestFailed)} did not` : `; none tried failed (open-file limit ${limit})`}`,
      )
  }
  if (rows.length > 1) say(summaryTable(rows))
  for (const note of notes) say(note)
  say(
    `(figures from a machine shared with other work: viewers, bidders, Redis, Postgres and the server share ${spawnSync('nproc', { encoding: 'utf8' }).stdout.trim()} cores)`,
  )
} finally {
  await redis.quit()
  await deleteKeys(services.REDIS_URL, scenario.prefix)
  await scenario.cleanup()
  await services.stop()
}
