// The whole site for the HTTP benchmarks: a scratch database and Redis prefix, logged-in
// people, auctions that have just gone live, and production servers on them; plus the bare
// Express reference server. Everything it starts, close() stops and removes.
import { execFileSync, fork, type ForkOptions } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createRedis, keysOf } from '../engine/index.ts'
import { ensureServices } from '../scripts/services.ts'
import {
  createAuctions,
  createManyPeople,
  createScenario,
  deleteKeys,
  startApp,
  waitFor,
  type App,
  type Person,
  type Scenario,
} from '../tests/setup/stack.ts'
import { runLoad, type BidAuction, type LoadReport, type LoadSpec } from './load.ts'
import { startStatementCounter } from './pg-count.ts'
import { fmt } from './support.ts'

export type SiteOptions = {
  name: string
  people: number
  auctions: number
  instances?: number
  /** Auctions that start in an hour, for the lists of upcoming ones. */
  upcoming?: number
  /** Servers reach Postgres through a statement counter (pg-count.ts). */
  countStatements?: boolean
  /** A folder for the servers' V8 CPU profiles (written when they stop). */
  cpuProfileDir?: string
  /**
   * Folders with a build/ of their own, one server each (instead of `instances` of this one):
   * another version of the site beside this one, on the same data.
   */
  builds?: string[]
  /** More environment for the servers. */
  env?: Record<string, string>
  /** Runs once people and auctions are made, before the servers start (which load them). */
  prepare?: (prisma: Scenario['prisma'], auctionIds: string[]) => Promise<void>
}

export async function startSite(options: SiteOptions) {
  const say = (line: string) => process.stdout.write(`${line}\n`)
  const cleanups: Array<() => Promise<unknown>> = []
  const close = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {})
    cleanups.length = 0
  }
  try {
    const services = await ensureServices()
    cleanups.push(() => services.stop())
    const scenario = await createScenario(options.name, services.DATABASE_URL)
    cleanups.push(() => scenario.cleanup())
    cleanups.push(() => deleteKeys(services.REDIS_URL, scenario.prefix))
    const redis = createRedis(services.REDIS_URL)
    cleanups.push(() => redis.quit())

    say(
      `setting up ${options.people} people, ${options.auctions} auctions to go live and ${options.upcoming ?? 0} upcoming...`,
    )
    const people: Person[] = await createManyPeople(scenario.prisma, options.people)
    await createAuctions(scenario.prisma, options.upcoming ?? 0, 60 * 60 * 1000)
    const ids = await createAuctions(scenario.prisma, options.auctions, 4_000)
    const slugs = new Map(
      (
        await scenario.prisma.auction.findMany({
          where: { id: { in: ids } },
          select: { id: true, slug: true },
        })
      ).map((row) => [row.id, row.slug]),
    )
    const auctions: BidAuction[] = ids.map((id) => ({ id, slug: slugs.get(id)! }))
    await options.prepare?.(scenario.prisma, ids)

    const counter = options.countStatements
      ? await startStatementCounter(scenario.databaseUrl)
      : undefined
    if (counter) cleanups.push(() => counter.close())
    const instances = options.builds?.length ?? options.instances ?? 1
    say(`starting ${instances} server${instances > 1 ? 's' : ''}...`)
    const apps: App[] = await Promise.all(
      Array.from({ length: instances }, (_, i) =>
        startApp({
          databaseUrl: counter?.databaseUrl ?? scenario.databaseUrl,
          redisUrl: services.REDIS_URL,
          prefix: scenario.prefix,
          label: `web${i + 1}`,
          env: options.env,
          cwd: options.builds?.[i],
          nodeArgs: [
            ...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
            ...(options.cpuProfileDir
              ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`]
              : []),
          ],
        }).then((app) => {
          cleanups.push(() => app.stop())
          return app
        }),
      ),
    )
    await waitFor(
      'the auctions to go live',
      async () => {
        const states = await Promise.all(
          ids.map((id) => redis.hget(keysOf(scenario.prefix).auction(id), 'status')),
        )
        return states.every((status) => status === 'live')
      },
      20_000,
      100,
    )
    const outboxLength = () => redis.xlen(keysOf(scenario.prefix).outbox)
    const cpu = async (): Promise<CpuSnapshot> => {
      const rows = await scenario.prisma.$queryRaw<Array<{ pid: number }>>`
        SELECT pid FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid()`
      return {
        servers: apps.map((app) => processCpuMs(app.child.pid ?? 0)),
        postgres: new Map(rows.map(({ pid }) => [pid, processCpuMs(pid)])),
      }
    }
    return {
      services,
      scenario,
      redis,
      people,
      auctions,
      apps,
      origins: apps.map((app) => app.url),
      counter,
      /** Entries the outbox has yet to write to Postgres. */
      outboxLength,
      /** Bids Postgres holds. */
      persistedBids: () => scenario.prisma.bid.count(),
      /** Waits (at most `timeoutMs`) until the outbox has written everything to Postgres. */
      async drainOutbox(timeoutMs: number) {
        const entries = await outboxLength()
        const began = Date.now()
        let left = entries
        while (left > 0 && Date.now() - began < timeoutMs) {
          await new Promise((resolve) => setTimeout(resolve, 100))
          left = await outboxLength()
        }
        return { entries, left, seconds: (Date.now() - began) / 1000 }
      },
      /** CPU used so far by the servers and by the database's Postgres backends. */
      cpu,
      close,
    }
  } catch (error) {
    await close()
    throw error
  }
}

export type Site = Awaited<ReturnType<typeof startSite>>

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
  } catch {
    return 100
  }
})()

/** CPU time (user + system) a process has used, ms; null where /proc cannot tell. */
export function processCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // After "pid (name) ": the state is field 3; utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS
  } catch {
    return null
  }
}

export type CpuSnapshot = { servers: Array<number | null>; postgres: Map<number, number | null> }

/**
 * CPU ms between two snapshots: all servers together and each, all Postgres backends together.
 */
export function cpuBetween(before: CpuSnapshot, after: CpuSnapshot) {
  const perServer = after.servers.map((ms, i) => {
    const was = before.servers[i]
    return ms === null || was === null || was === undefined ? null : ms - was
  })
  const servers = perServer.some((ms) => ms === null)
    ? null
    : perServer.reduce<number>((sum, ms) => sum + ms!, 0)
  let postgres: number | null = 0
  for (const [pid, ms] of after.postgres) {
    if (ms === null || postgres === null) postgres = null
    else postgres += ms - (before.postgres.get(pid) ?? 0)
  }
  return { servers, perServer, postgres }
}

/**
 * A server script in a process of its own that tells its parent, over IPC, the port it listens
 * on and stops on SIGTERM: the Express hello-world (hello-server.ts), the bare Remix app.
 */
export async function startServerProcess(
  script: string | URL,
  args: string[] = [],
  options: ForkOptions = {},
): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  const child = fork(script, args, { ...options, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    await exited
  }
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.once('message', (message) => resolve((message as { port: number }).port))
      child.once('error', reject)
      void exited.then(() => reject(new Error(`${String(script)} exited at start`)))
    })
    child.disconnect()
    return { url: `http://127.0.0.1:${port}`, pid: child.pid ?? 0, stop }
  } catch (error) {
    await stop()
    throw error
  }
}

/** The bare Express hello-world (hello-server.ts) in a process of its own. */
export const startHello = () => startServerProcess(new URL('./hello-server.ts', import.meta.url))

/** Runs a load against the site and tells the CPU each answer cost the servers and Postgres. */
export async function loadWithCpu(site: Site, spec: LoadSpec) {
  const before = await site.cpu()
  const report = await runLoad(spec)
  const used = cpuBetween(before, await site.cpu())
  return { report, used }
}

/** The servers' (or server `index`'s) CPU per answer of a load, ms; null where /proc could not tell. */
export function serverCpuPerAnswer(
  { report, used }: { report: LoadReport; used: ReturnType<typeof cpuBetween> },
  index?: number,
) {
  const ms = index === undefined ? used.servers : (used.perServer[index] ?? null)
  return ms === null || report.answeredAll === 0 ? null : ms / report.answeredAll
}

/** `CPU per answer: server … ms, Postgres … ms, generator … ms`. */
export function cpuText({
  report,
  used,
}: {
  report: LoadReport
  used: ReturnType<typeof cpuBetween>
}) {
  const each = (ms: number | null, answers: number) =>
    ms === null || answers === 0 ? 'n/a' : `${fmt(ms / answers, 2)} ms`
  return `CPU per answer: server ${each(used.servers, report.answeredAll)}, Postgres ${each(used.postgres, report.answeredAll)}, load generator ${each(report.cpuMs, report.answered)}`
}
