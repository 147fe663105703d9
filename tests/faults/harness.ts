// What every fault scenario needs beyond the stack (tests/setup/stack.ts): bidders that remember
// every bid the server acknowledged, and the final accounting of Redis, Postgres and ledger.
import { execFile } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'
import type { Redis } from 'ioredis'
import { io, type Socket } from 'socket.io-client'
import { expect, onTestFailed } from 'vitest'
import {
  type AuctionStatus,
  auditBalances,
  createRedis,
  Engine,
  type RedisTarget,
} from '../../engine/index.ts'
import {
  BID_EVERY_MS,
  createAuctions,
  INITIAL_BALANCE,
  root,
  sleep,
  waitFor,
  type App,
  type Person,
  type Scenario,
} from '../setup/stack.ts'

export * from '../setup/stack.ts'

export function say(message: string) {
  process.stdout.write(`[faults] ${message}\n`)
}

/** When the running test fails, the last lines each server wrote, for the diagnosis. */
export function showOutputOnFailure(apps: App[]) {
  onTestFailed(() => {
    for (const [n, app] of apps.entries()) say(`server ${n + 1} wrote:\n${app.output()}`)
  })
}

// --- bidding --------------------------------------------------------------------------------

export type Ack = { userId: string; auctionId: string; price: number; at: number }
type Outcome = { status: number | 'network'; at: number; target: string }

/**
 * Every person bids every BID_EVERY_MS on the auctions in turn, through whichever instance
 * `target()` names. A bid counts as acknowledged only on a 200 with `ok: true`; its price (the
 * auction's price after it, unique per auction) identifies it in Postgres.
 */
export class Bidders {
  readonly acks: Ack[] = []
  readonly outcomes: Outcome[] = []
  private running = false
  private loops: Promise<void>[] = []

  constructor(
    private readonly people: Person[],
    private readonly auctions: string[],
    private readonly target: () => string,
  ) {}

  start() {
    this.running = true
    this.loops = this.people.map((person, index) => this.loop(person, index))
  }

  /** Stops and waits for the requests in flight, so every answer is counted. */
  async stop() {
    this.running = false
    await Promise.all(this.loops)
  }

  count(status: Outcome['status'], since = 0) {
    return this.outcomes.filter((o) => o.status === status && o.at >= since).length
  }

  statuses(from = 0, to = Infinity) {
    const counts: Record<string, number> = {}
    for (const o of this.outcomes) {
      if (o.at >= from && o.at < to) counts[o.status] = (counts[o.status] ?? 0) + 1
    }
    return counts
  }

  private async loop(person: Person, index: number) {
    // People start spread over one interval, and on different auctions.
    await sleep((index * BID_EVERY_MS) / this.people.length)
    let turn = index
    while (this.running) {
      const started = Date.now()
      const auctionId = this.auctions[turn++ % this.auctions.length]!
      const base = this.target()
      let status: Outcome['status'] = 'network'
      try {
        const response = await fetch(`${base}/api/auctions/${auctionId}/bid`, {
          method: 'POST',
          headers: { Cookie: person.cookie, 'Accept-Language': 'ru' },
          signal: AbortSignal.timeout(10_000),
        })
        status = response.status
        const body = (await response.json().catch(() => null)) as {
          ok?: boolean
          currentPrice?: number
        } | null
        if (status === 200 && body?.ok && typeof body.currentPrice === 'number') {
          this.acks.push({
            userId: person.id,
            auctionId,
            price: Math.round(body.currentPrice * 100),
            at: Date.now(),
          })
        }
      } catch {
        // Refused, reset or timed out: not acknowledged.
      }
      this.outcomes.push({ status, at: started, target: base })
      await sleep(Math.max(0, started + BID_EVERY_MS - Date.now()))
    }
  }
}

/**
 * Waits until bids are acknowledged again and a socket's update (`updates`, from watchUpdates)
 * came after `since`, lets the bidding go on 3 s more and stops it.
 */
export async function recoveredAfter(bidders: Bidders, updates: number[], since: number) {
  await waitFor(
    'bids acknowledged again',
    async () => bidders.acks.some((a) => a.at > since),
    15_000,
    100,
  )
  await waitFor('an auctionUpdate after the outage', async () => updates.at(-1)! > since, 10_000)
  await sleep(3_000)
  await bidders.stop()
}

/**
 * A clean error for every bid during an outage (`answers`, from Bidders.statuses): an answer,
 * never a dropped connection nor a server error; no server process died.
 */
export function expectCleanAnswers(answers: Record<string, number>, apps: App[]) {
  expect(answers.network ?? 0, 'requests without an answer during the outage').toBe(0)
  expect(answers['500'] ?? 0, 'server errors during the outage').toBe(0)
  for (const app of apps) expect(app.exited(), 'the server process').toBeNull()
}

/**
 * A socket on the instance at `url` following one auction: the times its `auctionUpdate`s came.
 * Resolves once connected.
 */
export async function watchUpdates(url: string, auctionId: string) {
  const updates: number[] = []
  const socket: Socket = io(url, { transports: ['websocket'] })
  socket.on('connect', () => socket.emit('joinAuction', auctionId))
  socket.on('auctionUpdate', () => updates.push(Date.now()))
  await waitFor('the socket to connect', async () => socket.connected, 5_000)
  return { socket, updates }
}

/**
 * Auctions starting in half a second, made once the servers are up and loaded into Redis as an
 * admin's new auction is: their ten seconds without a bid do not run out while a slow machine
 * is still starting the second server.
 */
export async function startAuctions(engine: Engine, scenario: Scenario, count: number) {
  const ids = await createAuctions(scenario.prisma, count)
  for (const id of ids) await engine.loadAuction(id)
  return ids
}

/** Waits until every auction has `status` in Redis. */
export function auctionsReach(
  engine: Engine,
  auctions: string[],
  status: AuctionStatus,
  timeoutMs: number,
) {
  return waitFor(
    `the auctions to be ${status}`,
    async () => (await engine.getStates(auctions)).every((s) => s?.status === status),
    timeoutMs,
  )
}

// --- the accounting -------------------------------------------------------------------------

/** `npm run balances` as an operator runs it on the scenario's installation: output, exit code. */
export async function runBalances(scenario: Scenario, redisUrl: string) {
  const env = {
    ...process.env,
    NODE_ENV: 'development' as const,
    DATABASE_URL: scenario.databaseUrl,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: scenario.prefix,
  }
  try {
    const { stdout } = await promisify(execFile)(
      path.join(root, 'node_modules/.bin/tsx'),
      ['scripts/balances.ts'],
      { cwd: root, env },
    )
    return { code: 0, stdout }
  } catch (error) {
    const failed = error as { code?: number; stdout?: string }
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '' }
  }
}

export function engineFor(scenario: Scenario, redis: Redis) {
  return new Engine({ redis, prisma: scenario.prisma, prefix: scenario.prefix })
}

/**
 * An engine of the test's own on a Redis that is going to fail: its commands fail during the
 * outage (not queued for long) and its connection comes back like the app's.
 */
export function engineThrough(scenario: Scenario, target: RedisTarget | string) {
  const redis = createRedis(target, { maxRetriesPerRequest: 1 })
  redis.on('error', () => {})
  return engineFor(scenario, redis)
}

/** Waits until every outbox entry is written to Postgres (written entries leave the stream). */
export async function waitDrained(engine: Engine, timeoutMs: number) {
  const started = Date.now()
  await waitFor(
    'the outbox to drain',
    async () => (await engine.redis.xlen(engine.keys.outbox)) === 0,
    timeoutMs,
    500,
  )
  return Date.now() - started
}

export type Accounting = {
  acknowledged: number
  redisBids: number
  postgresBids: number
  missing: Ack[]
}

/**
 * Compares what the clients were told, what Redis holds and what Postgres holds, and every
 * balance with its ledger; prints the counts and asserts that nothing acknowledged is lost,
 * Postgres has exactly the bids Redis counted, and every balance is its ledger sum.
 */
export async function account(
  label: string,
  engine: Engine,
  auctions: string[],
  people: Person[],
  acks: Ack[],
): Promise<Accounting> {
  const prisma = engine.prisma
  const states = await engine.getStates(auctions)
  const rows = await prisma.bid.findMany({
    where: { auctionId: { in: auctions } },
    select: { auctionId: true, userId: true, amount: true },
  })
  const stored = new Set(rows.map((r) => `${r.auctionId}|${r.userId}|${r.amount}`))
  const missing = acks.filter((a) => !stored.has(`${a.auctionId}|${a.userId}|${a.price}`))
  const redisBids = states.reduce((sum, s) => sum + (s?.bids ?? 0), 0)
  const audit = await auditBalances(engine)
  const users = await prisma.user.findMany({
    where: { id: { in: people.map((p) => p.id) } },
    select: { id: true, bidBalance: true, _count: { select: { bids: true } } },
  })
  const debitedWrong = users.filter((u) => u.bidBalance !== INITIAL_BALANCE - u._count.bids)
  say(
    `${label}: acknowledged bids ${acks.length}, bids in Redis ${redisBids}, bids in Postgres ${rows.length}, ` +
      `acknowledged but missing in Postgres ${missing.length}; balances checked ${audit.checked}, ` +
      `not equal to their ledger ${audit.mismatches.length}, outbox lag ${audit.outboxLag}, ` +
      `balance != ${INITIAL_BALANCE} - own bids ${debitedWrong.length}`,
  )
  expect(missing, 'acknowledged bids missing in Postgres').toEqual([])
  auctions.forEach((id, index) => {
    const inPostgres = rows.filter((r) => r.auctionId === id).length
    expect(states[index], `auction ${id} in Redis`).not.toBeNull()
    expect(inPostgres, `bids of auction ${id}: Postgres vs Redis`).toBe(states[index]!.bids)
  })
  expect(audit.outboxLag).toBe(0)
  expect(audit.mismatches, 'balances that differ from their ledger sum').toEqual([])
  expect(debitedWrong, 'balances that differ from the seed minus own bids').toEqual([])
  return { acknowledged: acks.length, redisBids, postgresBids: rows.length, missing }
}

/**
 * Every auction finished in Redis, on time: the sweep that finished it ran within `slackMs` of
 * its deadline (`ended`). Returns each auction's end time.
 */
export async function finishedOnTime(engine: Engine, auctions: string[], slackMs = 1_500) {
  const ends = new Map<string, number>()
  for (const id of auctions) {
    const [status, ended, finishedAt] = await engine.redis.hmget(
      engine.keys.auction(id),
      'status',
      'ended',
      'finishedAt',
    )
    expect(status, `auction ${id} status in Redis`).toBe('finished')
    expect(Number(finishedAt) - Number(ended), `auction ${id} finished late`).toBeLessThan(slackMs)
    ends.set(id, Number(ended))
  }
  return ends
}

/** The last acknowledged bid of each auction: its winner and final price. */
export function lastAcks(acks: Ack[]) {
  const last = new Map<string, Ack>()
  for (const ack of acks) {
    const seen = last.get(ack.auctionId)
    if (!seen || ack.price > seen.price) last.set(ack.auctionId, ack)
  }
  return last
}

// --- viewers --------------------------------------------------------------------------------

/**
 * A Socket.IO client watching auctions over one transport, as a page does: it joins their rooms
 * on every (re)connection and keeps the time of every `auctionUpdate` and of every outage.
 */
export class Viewer {
  readonly updates: number[] = []
  readonly outages: { from: number; to?: number }[] = []
  readonly socket: Socket

  constructor(
    url: string,
    readonly transport: 'websocket' | 'polling',
    auctions: string[],
  ) {
    this.socket = io(url, {
      transports: [transport],
      reconnectionDelay: 200,
      reconnectionDelayMax: 1_000,
      timeout: 5_000,
    })
    this.socket.on('connect', () => {
      const outage = this.outages.at(-1)
      if (outage && outage.to === undefined) outage.to = Date.now()
      for (const id of auctions) this.socket.emit('joinAuction', id)
    })
    // A connection that closes before its Socket.IO handshake ends says so again.
    this.socket.on('disconnect', () => {
      const outage = this.outages.at(-1)
      if (!outage || outage.to !== undefined) this.outages.push({ from: Date.now() })
    })
    this.socket.on('auctionUpdate', () => this.updates.push(Date.now()))
  }

  connected() {
    return waitFor(
      `the ${this.transport} viewer to connect`,
      async () => this.socket.connected,
      10_000,
      50,
    )
  }

  updatesSince(at: number) {
    return this.updates.filter((t) => t >= at).length
  }

  /** The outages, as "N ms" each (still open: "open"). */
  describeOutages() {
    return this.outages.map((o) => (o.to ? `${o.to - o.from} ms` : 'open')).join(', ') || 'none'
  }

  close() {
    this.socket.close()
  }
}
