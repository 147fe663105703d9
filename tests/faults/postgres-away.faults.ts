import { type Redis } from 'ioredis'
import { createRedis } from '../../engine/index.ts'
import { afterAll, beforeAll, expect, inject, test } from 'vitest'
import {
  account,
  Bidders,
  createAuctions,
  createPeople,
  createScenario,
  deleteKeys,
  engineFor,
  finishedOnTime,
  freePort,
  lastAcks,
  readiness,
  say,
  sleep,
  startApp,
  waitDrained,
  waitFor,
  type App,
  type Scenario,
} from './harness.ts'
import { proxyTo, throughProxy, type TcpProxy } from './tcp-proxy.ts'

// The app reaches Postgres through a TCP proxy of the test's; the proxy is cut (new connections
// refused, open ones destroyed) for 30 s while the auctions' timers run out.

const OUTAGE_MS = 30_000

const redisUrl = inject('faultsRedisUrl')
let scenario: Scenario
let proxy: TcpProxy | undefined
let app: App | undefined
let redis: Redis | undefined

beforeAll(async () => {
  scenario = await createScenario('pg', inject('faultsDatabaseUrl'))
})

afterAll(async () => {
  // A test that failed during the outage gives the app its database back, so that it can stop.
  if (proxy && !proxy.isUp) await proxy.listen().catch(() => {})
  await app?.stop()
  await proxy?.cut()
  await redis?.quit()
  if (scenario) {
    await deleteKeys(redisUrl, scenario.prefix)
    await scenario.cleanup()
  }
})

test('Postgres away for 30 s while auctions finish: they finish on time and all is written after', async () => {
  proxy = await proxyTo(scenario.databaseUrl, await freePort())

  const people = await createPeople(scenario.prisma, 6)
  const auctions = await createAuctions(scenario.prisma, 2)
  app = await startApp({
    databaseUrl: throughProxy(scenario.databaseUrl, proxy.port),
    redisUrl,
    prefix: scenario.prefix,
    label: 'web',
  })
  redis = createRedis(redisUrl)
  const engine = engineFor(scenario, redis)
  await waitFor(
    'the auctions to start',
    async () => (await engine.getStates(auctions)).every((s) => s?.status === 'live'),
    10_000,
  )

  const bidders = new Bidders(people, auctions, () => app!.url)
  bidders.start()
  await sleep(4_000)
  await bidders.stop()
  expect(bidders.acks.length).toBeGreaterThan(5)

  await proxy.cut()
  const cutAt = Date.now()
  await waitFor(
    '/readyz to report the database down',
    async () => {
      const report = await readiness(app!)
      return report.status === 503 && report.body.database === 'down' && report.body.redis === 'ok'
    },
    5_000,
  )

  // Pages and calls that need Postgres say so: 503, Retry-After, the visitor's language.
  const person = people[0]!
  const headers = { Cookie: person.cookie, 'Accept-Language': 'en' }
  const unavailable = 'The service is temporarily unavailable, please try again in a few seconds'
  const page = await fetch(`${app.url}/`, { headers, signal: AbortSignal.timeout(15_000) })
  expect(page.status).toBe(503)
  expect(page.headers.get('retry-after')).toBe('5')
  expect(await page.text()).toContain(unavailable)
  const call = await fetch(`${app.url}/api/users/profile`, {
    headers,
    signal: AbortSignal.timeout(15_000),
  })
  expect(call.status).toBe(503)
  expect(await call.json()).toEqual({ error: unavailable })
  // The log line names the request and the user. It is written once the answer is sent, so
  // it may reach this process's copy of the server's output a moment after the answer.
  const logged = await waitFor(
    'the 503 to be logged',
    async () =>
      app!
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .find((line) => line.msg === 'request answered 503' && line.path === '/api/users/profile'),
    3_000,
    50,
  )
  expect(logged).toMatchObject({ status: 503, requestId: call.headers.get('x-request-id') })

  // The timers run out during the cut and the sweeper finishes the auctions in Redis.
  await waitFor(
    'the auctions to finish in Redis',
    async () => (await engine.getStates(auctions)).every((s) => s?.status === 'finished'),
    15_000,
  )
  const ends = await finishedOnTime(engine, auctions)
  const lag = await redis.xlen(engine.keys.outbox)
  expect(lag, 'outbox entries waiting for Postgres').toBeGreaterThan(0)
  expect((await readiness(app)).body.database).toBe('down')
  await sleep(Math.max(0, cutAt + OUTAGE_MS - Date.now()))
  await proxy.listen()
  const restoredAt = Date.now()

  await waitFor('/readyz back to 200', async () => (await readiness(app!)).status === 200, 15_000)
  const drainMs = await waitDrained(engine, 60_000)
  say(
    `Postgres away ${restoredAt - cutAt} ms with ${lag} outbox entries waiting; drained ${drainMs} ms after it came back`,
  )
  expect(app.exited(), 'the server process').toBeNull()

  const last = lastAcks(bidders.acks)
  const rows = await scenario.prisma.auction.findMany({
    where: { id: { in: auctions } },
    select: { id: true, status: true, winnerId: true, finalPrice: true, endTime: true },
  })
  for (const row of rows) {
    const end = ends.get(row.id)!
    expect(end, 'finished while Postgres was away').toBeGreaterThan(cutAt)
    expect(end).toBeLessThan(restoredAt)
    expect(row).toEqual({
      id: row.id,
      status: 'finished',
      winnerId: last.get(row.id)!.userId,
      finalPrice: last.get(row.id)!.price,
      endTime: new Date(end),
    })
  }
  await account('Postgres away', engine, auctions, people, bidders.acks)
})
