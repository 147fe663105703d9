import { type Redis } from 'ioredis'
import { createRedis } from '../../engine/index.ts'
import { afterAll, beforeAll, expect, inject, test } from 'vitest'
import {
  account,
  Bidders,
  createPeople,
  createScenario,
  deleteKeys,
  engineFor,
  finishedOnTime,
  metric,
  say,
  sleep,
  startApp,
  startAuctions,
  waitDrained,
  waitFor,
  type App,
  type Scenario,
} from './harness.ts'

// Two instances on one Redis and one database; the one running the sweepers is killed with
// SIGKILL in the middle of steady bidding.

const redisUrl = inject('faultsRedisUrl')
let scenario: Scenario
let redis: Redis
const apps: App[] = []

beforeAll(async () => {
  scenario = await createScenario('kill', inject('faultsDatabaseUrl'))
  redis = createRedis(redisUrl)
})

afterAll(async () => {
  await Promise.all(apps.map((app) => app.stop()))
  await redis?.quit()
  if (scenario) {
    await deleteKeys(redisUrl, scenario.prefix)
    await scenario.cleanup()
  }
})

test('a web process killed with SIGKILL loses no acknowledged bid and no bid credit', async () => {
  const people = await createPeople(scenario.prisma, 8)
  const options = { databaseUrl: scenario.databaseUrl, redisUrl, prefix: scenario.prefix }
  apps.push(await startApp({ ...options, label: 'web-1' }))
  apps.push(await startApp({ ...options, label: 'web-2' }))
  const engine = engineFor(scenario, redis)
  const auctions = await startAuctions(engine, scenario, 3)
  await waitFor(
    'the auctions to start',
    async () => (await engine.getStates(auctions)).every((s) => s?.status === 'live'),
    10_000,
  )

  const leaderOf = async () => {
    const flags = await Promise.all(apps.map((app) => metric(app, 'pa_engine_leader')))
    return flags.filter((f) => f === 1).length === 1 ? apps[flags.indexOf(1)] : undefined
  }
  const leader = await waitFor('one lease holder', leaderOf, 5_000)
  const survivor = apps.find((app) => app !== leader)!

  let killed = false
  let turn = 0
  const bidders = new Bidders(people, auctions, () =>
    killed ? survivor.url : apps[turn++ % apps.length]!.url,
  )
  bidders.start()
  await sleep(6_000)

  // Frozen for half a second first (less than the lease's lifetime): Redis keeps handing
  // outbox entries to its blocked reader, so the kill leaves entries pending for a dead consumer.
  leader.child.kill('SIGSTOP')
  await sleep(500)
  leader.child.kill('SIGKILL')
  const killedAt = Date.now()
  killed = true
  await waitFor('the killed process to exit', async () => leader.exited(), 5_000, 20)
  const consumers = (await redis.xinfo('CONSUMERS', engine.keys.outbox, 'postgres')) as unknown[][]
  const pendingAtKill = consumers
    .filter((c) => String(c[1]).includes(`-${leader.child.pid}-`))
    .reduce((sum, c) => sum + Number(c[3]), 0)

  await waitFor(
    'the survivor to take the lease',
    async () => (await metric(survivor, 'pa_engine_leader')) === 1,
    3_000,
    50,
  )
  const takeoverMs = Date.now() - killedAt
  say(
    `lease taken over ${takeoverMs} ms after the kill; outbox entries left pending by the dead instance: ${pendingAtKill}`,
  )
  expect(takeoverMs).toBeLessThan(3_000)

  await sleep(6_000)
  await bidders.stop()
  const stoppedAt = Date.now()
  const afterKill = bidders.acks.filter((a) => a.at > killedAt).length
  say(
    `bids acknowledged after the kill: ${afterKill}; answers: ${JSON.stringify(bidders.statuses())}`,
  )
  expect(afterKill).toBeGreaterThan(10)

  // The survivor's sweeper finishes every auction ten seconds after its last bid.
  await waitFor(
    'the auctions to finish',
    async () => (await engine.getStates(auctions)).every((s) => s?.status === 'finished'),
    15_000,
  )
  const ends = await finishedOnTime(engine, auctions)
  for (const end of ends.values()) expect(end).toBeGreaterThan(stoppedAt - 2_000)

  // The dead instance's unacknowledged entries are claimed after 30 s idle.
  const drainMs = await waitDrained(engine, 60_000)
  say(`outbox drained ${drainMs} ms after the auctions finished`)
  await waitFor(
    'the finished auctions in Postgres',
    async () =>
      (await scenario.prisma.auction.count({
        where: { id: { in: auctions }, status: 'finished' },
      })) === auctions.length,
    10_000,
  )
  await account('kill -9', engine, auctions, people, bidders.acks)
  expect(survivor.exited()).toBeNull()
})
