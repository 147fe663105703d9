import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, expect, inject, test } from 'vitest'
import { auditHolds, type Engine } from '../../engine/index.ts'
import {
  account,
  auctionsReach,
  createAuctions,
  createPeople,
  createScenario,
  engineThrough,
  freePort,
  runBalances,
  say,
  startApp,
  waitDrained,
  waitFor,
  type App,
  type Person,
  type Scenario,
} from './harness.ts'
import { startRedisServer, type RedisProcess } from '../setup/redis-servers.ts'

// Redis loses its data while an upcoming auction holds prebids and auto-bid budgets and a live
// one has auto-bidders halfway through theirs: a Redis without persistence killed and started
// again empty. Recovery follows docs/operations.md ("Recover from the loss of Redis"): the
// instance is stopped and started, then `npm run balances` checks. Every charged prebid must
// become a bid at the start, the auto-bidders go on with what is left of their budgets, and
// every balance ends equal to its ledger.

let scenario: Scenario
let app: App | undefined
let redisServer: RedisProcess | undefined
let engine: Engine | undefined
const dir = mkdtempSync(path.join(tmpdir(), 'pa-faults-redis-loss-'))

/** A Redis that keeps nothing on disk: killed, it comes back empty. */
const startRedis = (port: number) =>
  startRedisServer(port, ['--dir', dir, '--appendonly', 'no', '--save', ''])

beforeAll(async () => {
  scenario = await createScenario('loss', inject('faultsDatabaseUrl'))
})

afterAll(async () => {
  await app?.stop()
  engine?.redis.disconnect()
  await redisServer?.stop('SIGTERM')
  rmSync(dir, { recursive: true, force: true })
  await scenario?.cleanup()
})

async function post(person: Person, url: string, body?: unknown) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { Cookie: person.cookie, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  expect(response.status, `POST ${url}: ${await response.clone().text()}`).toBe(200)
}

test('Redis emptied with prebids and auto-bidders held: recovered by the runbook, nothing paid is lost', async () => {
  const port = await freePort()
  const redisUrl = `redis://127.0.0.1:${port}`
  redisServer = await startRedis(port)
  const people = await createPeople(scenario.prisma, 6)
  const [live] = await createAuctions(scenario.prisma, 1)
  const [upcoming] = await createAuctions(scenario.prisma, 1, 35_000)
  const options = { databaseUrl: scenario.databaseUrl, redisUrl, prefix: scenario.prefix }
  app = await startApp({ ...options, label: 'web' })
  engine = engineThrough(scenario, redisUrl)
  await auctionsReach(engine, [live!], 'live', 10_000)

  const prebidders = people.slice(0, 4)
  for (const person of prebidders) await post(person, `${app.url}/api/auctions/${upcoming}/prebid`)
  for (const person of people.slice(4))
    await post(person, `${app.url}/api/auctions/${upcoming}/autobid`, { bids: 1 })
  for (const person of people.slice(0, 2))
    await post(person, `${app.url}/api/auctions/${live}/autobid`, { bids: 2 })
  await waitFor(
    'an auto bid on the live auction',
    async () => ((await engine!.getState(live!))?.bids ?? 0) >= 1,
    15_000,
    100,
  )
  await waitDrained(engine, 10_000)
  const placedBefore = await scenario.prisma.bid.count({ where: { auctionId: live, isAuto: true } })

  // The loss: Redis dies and comes back with nothing.
  await redisServer.stop('SIGKILL')
  redisServer = await startRedis(port)
  const lostAt = Date.now()
  await waitFor(
    'Redis back without the auctions',
    async () => (await engine!.redis.exists(engine!.keys.auction(upcoming!))) === 0,
    10_000,
    100,
  )

  // The runbook: stop the instances, start one on the empty Redis, check the balances.
  await app.stop()
  app = await startApp({ ...options, label: 'web (after the loss)' })
  const restartedAfterMs = Date.now() - lostAt
  const held = await engine.getState(upcoming!)
  if (held?.status === 'upcoming') {
    const queue = await engine.redis.zrange(engine.keys.prebids(upcoming!), 0, -1)
    expect(queue, 'prebids back in the order placed').toEqual(prebidders.map((p) => p.id))
    expect(held.prebids).toBe(4)
  }
  for (const person of people.slice(4))
    expect(await engine.getAutoBid(upcoming!, person.id)).toMatchObject({ left: 1 })
  const budgets = await Promise.all(
    people.slice(0, 2).map((person) => engine!.getAutoBid(live!, person.id)),
  )
  expect(
    budgets.reduce((sum, b) => sum + (b?.left ?? 0), 0),
    'budgets left on the live one',
  ).toBe(4 - placedBefore)
  const check = await runBalances(scenario, redisUrl)
  say(`npm run balances after the restart: ${check.stdout.trim().replaceAll('\n', ' / ')}`)
  expect(check.code, check.stdout).toBe(0)

  await auctionsReach(engine, [upcoming!, live!], 'finished', 90_000)
  await waitDrained(engine, 30_000)
  const prisma = scenario.prisma
  const converted = await prisma.bid.findMany({
    where: { auctionId: upcoming, isPrebid: true },
    orderBy: { amount: 'asc' },
  })
  expect(
    converted.map((bid) => bid.userId),
    'every charged prebid a bid',
  ).toEqual(prebidders.map((p) => p.id))
  const autoBids = await prisma.autoBid.findMany({
    where: { auctionId: { in: [upcoming!, live!] } },
  })
  for (const row of autoBids)
    expect(row.placed + row.returned, `budget of ${row.userId}`).toBe(row.budget)
  const placedAfter =
    (await prisma.bid.count({ where: { auctionId: { in: [upcoming!, live!] }, isAuto: true } })) -
    placedBefore
  say(
    `Redis lost; one instance up again after ${restartedAfterMs} ms; auto bids before the loss ` +
      `${placedBefore}, after it ${placedAfter}; prebids turned into bids ${converted.length}`,
  )
  expect(placedAfter, 'auto bids after the loss').toBeGreaterThanOrEqual(2)
  expect(await auditHolds(engine)).toEqual({ prebids: [], budgets: [] })
  await account('Redis loss', engine, [upcoming!, live!], people, [])
})
