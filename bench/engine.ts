// Bids per second through the engine alone: many users with real balances bidding on 100 live
// auctions, concurrently, for a fixed time; next to redis-benchmark's EVALSHA of a no-op script
// on the same Redis in the same run, and the engine's share of it (goal >= 35 %, docs/performance.md).
// `npm run bench:engine [-- --seconds 10 --users 40000]`.
// `--wait-replicas 1`: on a primary with that many replicas of the bench's own, the same run
// without and then with Redis WAIT after each bid (REDIS_WAIT_REPLICAS, engine/replicas.ts).
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Engine } from '../engine/index.ts'
import { freePort, waitFor } from '../tests/setup/stack.ts'
import { replicasOnline, startDataNode, type RedisProcess } from '../tests/setup/redis-servers.ts'
import { benchArgs, fmt, percentile, scratch } from './support.ts'

const { numbers } = benchArgs({
  seconds: 10,
  users: 40_000,
  auctions: 100,
  concurrency: 256,
  'wait-replicas': 0,
})
const {
  seconds,
  users: userCount,
  auctions: auctionCount,
  concurrency,
  'wait-replicas': waitReplicas,
} = numbers

const dir = mkdtempSync(path.join(tmpdir(), 'pa-bench-replicas-'))
const nodes: RedisProcess[] = []
let primaryUrl: string | undefined
if (waitReplicas > 0) {
  const primary = await startDataNode(await freePort(), dir)
  nodes.push(primary)
  for (let i = 0; i < waitReplicas; i++)
    nodes.push(await startDataNode(await freePort(), dir, primary.port))
  await waitFor(
    'the replicas to sync',
    async () => (await replicasOnline(primary.port)) === waitReplicas,
    15_000,
  )
  primaryUrl = `redis://127.0.0.1:${primary.port}`
  process.stdout.write(`a primary with ${waitReplicas} replica(s) of the bench's own\n`)
}

const env = await scratch('engine', primaryUrl)
const { prisma, redis } = env
try {
  process.stdout.write(`setting up ${fmt(userCount)} users and ${auctionCount} live auctions...\n`)
  const users = Array.from({ length: userCount }, (_, i) => ({
    id: `bench-user-${i}`,
    username: `bench_${i}`,
    email: `bench_${i}@example.com`,
    bidBalance: 1_000_000,
  }))
  for (let i = 0; i < users.length; i += 5000) {
    await prisma.user.createMany({ data: users.slice(i, i + 5000) })
  }
  const start = new Date(Date.now() - 1000)
  await prisma.auction.createMany({
    data: Array.from({ length: auctionCount }, (_, i) => ({
      id: `bench-auction-${i}`,
      displayId: `B-${i}`,
      slug: `bench-${i}`,
      title: `Bench ${i}`,
      retailPrice: 100_000,
      startTime: start,
    })),
  })
  // A long timer so no auction ends during the run.
  const engine = new Engine({ redis, prisma, prefix: env.prefix, timerMs: 3_600_000 })
  await engine.loadScripts()
  await engine.loadAllAuctions()
  await engine.sweep(1000)
  for (let i = 0; i < users.length; i += 1000) {
    await Promise.all(users.slice(i, i + 1000).map((user) => engine.loadUser(user.id)))
  }

  /** Bids for `seconds` through `bidder`: accepted per second, latencies, rejects. */
  async function measure(bidder: Engine, label: string) {
    process.stdout.write(`${label}: bidding for ${seconds} s with ${concurrency} bidders...\n`)
    const latencies: number[] = []
    const rejects: Record<string, number> = {}
    let accepted = 0
    const stopAt = Date.now() + seconds * 1000
    const perLoop = Math.floor(userCount / concurrency)
    const began = process.hrtime.bigint()
    await Promise.all(
      Array.from({ length: concurrency }, async (_, loop) => {
        let turn = 0
        while (Date.now() < stopAt) {
          const user = users[loop * perLoop + (turn++ % perLoop)]!
          const auction = `bench-auction-${Math.floor(Math.random() * auctionCount)}`
          const t0 = process.hrtime.bigint()
          const result = await bidder.bid(auction, user.id)
          latencies.push(Number(process.hrtime.bigint() - t0) / 1e6)
          if (result.ok) accepted++
          else rejects[result.reason] = (rejects[result.reason] ?? 0) + 1
        }
      }),
    )
    const elapsed = Number(process.hrtime.bigint() - began) / 1e9
    latencies.sort((x, y) => x - y)
    return {
      label,
      rate: accepted / elapsed,
      calls: latencies.length / elapsed,
      latencies,
      rejects,
    }
  }
  const runs = []
  if (waitReplicas === 0) runs.push(await measure(engine, 'bids'))
  else {
    // Each kind twice, taking turns, so that what else the machine does weighs on both alike.
    // The second kind's bids go through a connection of their own (engine/replicas.ts).
    const waiting = new Engine({
      redis,
      prisma,
      prefix: env.prefix,
      timerMs: 3_600_000,
      replicas: { count: waitReplicas, timeoutMs: 1_000 },
    })
    for (const round of [1, 2]) {
      runs.push(await measure(engine, `without WAIT (${round})`))
      // Everyone bid in the run before: the 1 s rule has passed for all but its last bids.
      await new Promise((resolve) => setTimeout(resolve, 1_100))
      runs.push(await measure(waiting, `with WAIT ${waitReplicas} (${round})`))
      await new Promise((resolve) => setTimeout(resolve, 1_100))
    }
    await waiting.close()
  }

  // The same Redis running a script that does nothing: the ceiling for any script call.
  const url = new URL(env.redisUrl)
  const sha = (await redis.script('LOAD', 'return 1')) as string
  const output = execFileSync(
    'redis-benchmark',
    [
      '-h',
      url.hostname,
      '-p',
      url.port || '6379',
      '-n',
      '200000',
      '-c',
      '50',
      '-q',
      'EVALSHA',
      sha,
      '0',
    ],
    { encoding: 'utf8' },
  )
  const noop = Number(/([\d.]+) requests per second/.exec(output)?.[1] ?? 0)

  const lines = ['']
  for (const { label, rate, calls, latencies, rejects } of runs) {
    lines.push(
      `${label}:`,
      `engine bids (accepted)   ${fmt(rate)} bids/s   (goal >= 20,000)`,
      `all calls                ${fmt(calls)} calls/s`,
      `latency p50 / p99        ${fmt(percentile(latencies, 50), 2)} ms / ${fmt(percentile(latencies, 99), 2)} ms`,
      `rejects                  ${JSON.stringify(rejects)}`,
      `engine / no-op           ${fmt((100 * rate) / noop, 1)} %   (goal >= 35 %${(100 * rate) / noop >= 35 ? ': met' : ': not met'})`,
      '',
    )
  }
  lines.push(`redis-benchmark no-op    ${fmt(noop)} EVALSHA/s`, '')
  process.stdout.write(lines.join('\n'))
} finally {
  await env.close()
  await Promise.all(nodes.map((node) => node.stop()))
  rmSync(dir, { recursive: true, force: true })
}
