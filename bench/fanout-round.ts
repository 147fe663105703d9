// One round of the fan-out benchmark (bench/fanout.ts): viewers connect, bids come in at a
// steady rate, and what reached the viewers is summarized.
import { performance } from 'node:perf_hooks'
import type { Redis } from 'ioredis'
import { sleep, type Person } from '../tests/setup/stack.ts'
import { describeProfile } from './cpu-profile.ts'
import { summarize } from './fanout-report.ts'
import {
  freshAuctions,
  LOOP_MAX,
  LOOP_P99,
  readGauges,
  serverMemory,
  startProfile,
  type Stack,
} from './fanout-stack.ts'
import { fmt } from './support.ts'
import { connectViewers, processStats, type Viewers } from './viewers.ts'

const say = (line: string) => process.stdout.write(`${line}\n`)
/** Wall-clock ms with sub-ms precision, as the viewer processes read it. */
const wallMs = () => performance.timeOrigin + performance.now()

type BidAnswer = { ok?: boolean; error?: string; currentPrice?: number }

/**
 * Bids at a steady `rate` for `seconds`, auctions in turn, each from a person who is free: not
 * waiting on an answer, past the 1 s rule since their last one, and not leading that auction.
 * Requests alternate over the targets. Returns the accepted bids as `auctionId price` keys.
 */
async function bidSteadily(
  targets: string[],
  people: Person[],
  auctions: string[],
  { rate, seconds }: { rate: number; seconds: number },
) {
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

export async function runRound(stack: Stack, clients: number) {
  const { apps } = stack
  const auctions = await freshAuctions(stack)
  await sleep(2_000)
  const before = await serverMemory(apps)
  say(`  connecting ${fmt(clients)} viewers...`)
  let viewers: Viewers | undefined
  try {
    viewers = await connectViewers(clients, stack.viewerTargets, auctions.ids, {
      perProcess: stack.options.perProcess,
      concurrency: stack.options.concurrency,
    })
    say(
      `  ${fmt(viewers.joined)} joined in ${fmt(viewers.connectMs / 1000, 1)} s; measuring idle memory...`,
    )
    await sleep(2_000)
    const after = await serverMemory(apps)
    await auctions.open()
    await sleep(1_000)
    const clock = await clockOffset(stack.redis)

    say(`  bidding at ${stack.options.rate}/s for ${stack.options.seconds} s...`)
    const serverCpu0 = apps.reduce((sum, app) => sum + processStats(app.child.pid!).cpuMs, 0)
    const clientCpu0 = viewers.cpuMs()
    await readGauges(apps)
    const { profileDir } = stack.options
    const profiles = profileDir ? apps.map((app) => startProfile(app, profileDir)) : []
    const bidding = await bidSteadily(
      apps.map((app) => app.url),
      stack.people,
      auctions.ids,
      stack.options,
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
