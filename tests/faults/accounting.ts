import { execFile } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'
import type { Redis } from 'ioredis'
import { expect } from 'vitest'
import { auditBalances, createRedis, Engine, type RedisTarget } from '../../engine/index.ts'
import { INITIAL_BALANCE, root, waitFor, type Person, type Scenario } from '../setup/stack.ts'
import type { Ack } from './bidders.ts'
import { say } from './output.ts'

// The final accounting of a fault scenario: what the clients were told against what Redis,
// Postgres and the ledger hold, and the engine of the test's own that reads them.

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
