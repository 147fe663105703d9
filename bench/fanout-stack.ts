// The fan-out benchmark's servers (bench/fanout.ts): instances, the proxy in front of them,
// their CPU profiles and memory, and the auctions a round bids on.
import { existsSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Redis } from 'ioredis'
import type { Engine } from '../engine/index.ts'
import {
  createAuctions,
  type createScenario,
  metrics,
  sleep,
  startApp,
  waitFor,
  type App,
  type Person,
} from '../tests/setup/stack.ts'
import { forkScript, nextMessage, processStats, stopChild } from './viewers.ts'

const here = import.meta.dirname

/** The run's options (bench/fanout.ts reads them from its arguments). */
export type FanoutOptions = {
  rate: number
  seconds: number
  auctionCount: number
  perProcess: number
  concurrency: number
  viaProxy: boolean
  profileDir: string | undefined
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
export function startProfile(app: App, dir: string) {
  const pid = app.child.pid!
  const n = (profilesTaken.get(pid) ?? 0) + 1
  profilesTaken.set(pid, n)
  app.child.kill('SIGUSR2')
  return async () => {
    app.child.kill('SIGUSR2')
    const file = path.join(dir, `server-${pid}-${n}.cpuprofile`)
    await waitFor(`the profile ${file}`, async () => existsSync(file), 30_000, 200)
    // Written in one call, but give the write a moment to finish.
    await sleep(500)
    return file
  }
}

export const HEAP = 'pa_nodejs_heap_size_used_bytes'
export const SOCKETS = 'pa_sockets'
export const LOOP_P99 = 'pa_nodejs_eventloop_lag_p99_seconds'
export const LOOP_MAX = 'pa_nodejs_eventloop_lag_max_seconds'

/** Each instance's gauges, in one read (which also starts its event loop lag afresh). */
export const readGauges = (apps: App[]) =>
  Promise.all(apps.map((app) => metrics(app, [HEAP, SOCKETS, LOOP_P99, LOOP_MAX])))

/** Server memory now (resident set and V8 heap used, summed) and sockets per instance. */
export async function serverMemory(apps: App[]) {
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
export type Setup = {
  scenario: Awaited<ReturnType<typeof createScenario>>
  redisUrl: string
  redis: Redis
  engine: Engine
  people: Person[]
  options: FanoutOptions
}

export type Stack = Setup & {
  apps: App[]
  /** Where viewers connect: the instances, or the proxy in front of them. */
  viewerTargets: string[]
  stop: () => Promise<void>
}

/** Fresh server instances (behind the proxy with --via proxy) for one round. */
export async function startStack(setup: Setup, instances: number): Promise<Stack> {
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
          env: setup.options.profileDir ? profilerEnv(setup.options.profileDir) : {},
        }),
      )
    }
    if (setup.options.viaProxy && instances > 1)
      proxy = await startProxyProcess(apps.map((app) => app.url))
  } catch (error) {
    await stop()
    throw error
  }
  const viewerTargets = proxy ? [proxy.url] : apps.map((app) => app.url)
  return { ...setup, apps, viewerTargets, stop }
}

/** Auctions that open when told: far in the future until `open()` moves their start to now. */
export async function freshAuctions(stack: Stack) {
  const ids = await createAuctions(
    stack.scenario.prisma,
    stack.options.auctionCount,
    60 * 60 * 1000,
  )
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
