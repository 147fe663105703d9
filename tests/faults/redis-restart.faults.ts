import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { type Redis } from 'ioredis'
import type { Socket } from 'socket.io-client'
import { afterAll, beforeAll, expect, inject, test } from 'vitest'
import {
  account,
  auctionsReach,
  Bidders,
  createAuctions,
  createPeople,
  createScenario,
  engineThrough,
  expectCleanAnswers,
  finishedOnTime,
  freePort,
  readiness,
  recoveredAfter,
  say,
  sleep,
  startApp,
  waitDrained,
  waitFor,
  watchUpdates,
  type App,
  type Scenario,
} from './harness.ts'
import { startRedisServer, type RedisProcess } from '../setup/redis-servers.ts'

// One instance on a Redis of the test's own (AOF, fsync on every write), killed with SIGKILL
// during bidding and started again on the same port and files two seconds later.

let scenario: Scenario
let app: App | undefined
let redisServer: RedisProcess | undefined
let redis: Redis | undefined
let socket: Socket | undefined
const dir = mkdtempSync(path.join(tmpdir(), 'pa-faults-redis-'))

function startRedis(port: number) {
  return startRedisServer(port, [
    '--dir',
    dir,
    '--appendonly',
    'yes',
    '--appendfsync',
    'always',
    '--save',
    '',
  ])
}

function stopRedis(signal: NodeJS.Signals) {
  return redisServer?.stop(signal) ?? Promise.resolve()
}

beforeAll(async () => {
  scenario = await createScenario('redis', inject('faultsDatabaseUrl'))
})

afterAll(async () => {
  socket?.disconnect()
  await app?.stop()
  redis?.disconnect()
  await stopRedis('SIGTERM')
  rmSync(dir, { recursive: true, force: true })
  await scenario?.cleanup()
})

test('Redis killed and restarted during bidding: nothing acknowledged is lost, the app recovers', async () => {
  const port = await freePort()
  const redisUrl = `redis://127.0.0.1:${port}`
  redisServer = await startRedis(port)
  const people = await createPeople(scenario.prisma, 8)
  const auctions = await createAuctions(scenario.prisma, 2)
  app = await startApp({
    databaseUrl: scenario.databaseUrl,
    redisUrl,
    prefix: scenario.prefix,
    label: 'web',
  })
  const engine = engineThrough(scenario, redisUrl)
  redis = engine.redis
  await auctionsReach(engine, auctions, 'live', 10_000)

  const watch = await watchUpdates(app.url, auctions[0]!)
  socket = watch.socket
  const updates = watch.updates

  const bidders = new Bidders(people, auctions, () => app!.url)
  bidders.start()
  await sleep(5_000)
  expect(updates.length).toBeGreaterThan(0)

  await stopRedis('SIGKILL')
  const killedAt = Date.now()
  await waitFor(
    '/readyz to report Redis down',
    async () => {
      const report = await readiness(app!)
      return report.status === 503 && report.body.redis === 'down'
    },
    5_000,
    100,
  )
  await sleep(Math.max(0, killedAt + 2_000 - Date.now()))
  redisServer = await startRedis(port)
  const restartedAt = Date.now()

  await waitFor('/readyz back to 200', async () => (await readiness(app!)).status === 200, 20_000)
  const readyAfterMs = Date.now() - restartedAt
  await recoveredAfter(bidders, updates, restartedAt)

  const during = bidders.statuses(killedAt, restartedAt)
  say(
    `Redis down ${restartedAt - killedAt} ms; /readyz 200 again ${readyAfterMs} ms after the restart; ` +
      `answers during the outage: ${JSON.stringify(during)}; all answers: ${JSON.stringify(bidders.statuses())}`,
  )
  expectCleanAnswers(during, [app])

  await auctionsReach(engine, auctions, 'finished', 15_000)
  await finishedOnTime(engine, auctions)
  await waitDrained(engine, 60_000)
  const acked = new Map<string, number>()
  for (const ack of bidders.acks) acked.set(ack.auctionId, (acked.get(ack.auctionId) ?? 0) + 1)
  const states = await engine.getStates(auctions)
  auctions.forEach((id, index) => {
    expect(states[index]!.bids, `bids of ${id} in Redis`).toBeGreaterThanOrEqual(acked.get(id) ?? 0)
  })
  await account('Redis restart', engine, auctions, people, bidders.acks)
})
