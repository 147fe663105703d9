import { Redis } from 'ioredis'
import { afterAll, beforeAll, expect, inject, test } from 'vitest'
import { setupBrowser } from '../e2e/browser.ts'
import { dismissOnboarding, register, uniqueName } from '../e2e/people.ts'
import { startNginx, type Nginx } from '../setup/nginx.ts'
import {
  account,
  Bidders,
  createPeople,
  createScenario,
  deleteKeys,
  freePort,
  engineFor,
  metric,
  say,
  sleep,
  startApp,
  startAuctions,
  waitDrained,
  waitFor,
  Viewer,
  type App,
  type Scenario,
} from './harness.ts'

// Two instances behind nginx with the repository's configuration (deploy/nginx): pages,
// caching, limits, a browser and both Socket.IO transports through it; then, under steady
// bidding, one instance is killed with SIGKILL and both are restarted one after the other.

const redisUrl = inject('faultsRedisUrl')
const browser = setupBrowser()
let scenario: Scenario
let redis: Redis
let nginx: Nginx
const apps: App[] = []
const viewers: Viewer[] = []

let nginxPort = 0

const appOptions = () => ({
  databaseUrl: scenario.databaseUrl,
  redisUrl,
  prefix: scenario.prefix,
  // One proxy in front: the client's address is the one nginx appends to X-Forwarded-For, and
  // the site's public origin is nginx's, as the browser reaches it (tests/setup/nginx.ts:
  // browserUrl), so its form posts come from the site's own origin.
  env: { TRUST_PROXY: '1', PUBLIC_ORIGIN: `http://localhost:${nginxPort}` },
})

beforeAll(async () => {
  scenario = await createScenario('nginx', inject('faultsDatabaseUrl'))
  redis = new Redis(redisUrl)
  nginxPort = await freePort()
  apps.push(await startApp({ ...appOptions(), label: 'web-1' }))
  apps.push(await startApp({ ...appOptions(), label: 'web-2' }))
  nginx = await startNginx(
    apps.map((app) => new URL(app.url).host),
    nginxPort,
  )
})

afterAll(async () => {
  for (const viewer of viewers) viewer.close()
  await nginx?.stop()
  await Promise.all(apps.map((app) => app.stop()))
  await redis?.quit()
  if (scenario) {
    await deleteKeys(redisUrl, scenario.prefix)
    await scenario.cleanup()
  }
})

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${nginx.url}${path}`, { headers, signal: AbortSignal.timeout(10_000) })

test('pages, files and limits through nginx follow the app', async () => {
  // An anonymous page is kept for the second the app allows; a signed-in person's never.
  const [person] = await createPeople(scenario.prisma, 1)
  const first = await get('/auctions')
  expect(first.status).toBe(200)
  const second = await get('/auctions')
  expect(second.headers.get('x-cache-status')).toBe('HIT')
  for (let i = 0; i < 2; i++) {
    const own = await get('/auctions', { Cookie: person!.cookie })
    expect(own.headers.get('cache-control')).toContain('private')
    expect(own.headers.get('x-cache-status')).not.toBe('HIT')
  }

  // Assets: the app's stored Brotli file, immutable, then kept by nginx.
  const asset = /\/assets\/[\w.-]+\.js/.exec(await first.text())?.[0]
  expect(asset).toBeDefined()
  const files = [
    await get(asset!, { 'Accept-Encoding': 'br' }),
    await get(asset!, { 'Accept-Encoding': 'br' }),
  ]
  expect(files[0]!.headers.get('content-encoding')).toBe('br')
  expect(files[0]!.headers.get('cache-control')).toContain('immutable')
  expect(files[1]!.headers.get('x-cache-status')).toBe('HIT')

  // Bodies: 1 MiB in general, 9 MiB where an image may be uploaded.
  const post = (path: string, bytes: number) =>
    fetch(`${nginx.url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/octet-stream' },
      body: new Uint8Array(bytes),
    })
  expect((await post('/api/auctions/x/bid', 1024 * 1024 + 1)).status).toBe(413)
  expect((await post('/api/admin/images', 5 * 1024 * 1024)).status).not.toBe(413)
  expect((await post('/api/admin/images', 9 * 1024 * 1024 + 1)).status).toBe(413)
  // A script's post to a `.data` address is the app's to refuse (answers carry its request id).
  const script = await post('/login.data', 2 * 1024 * 1024)
  expect(script.status).toBeGreaterThanOrEqual(400)
  expect(script.status).toBeLessThan(500)
  expect(script.headers.get('x-request-id')).toBeTruthy()
})

const liveAuctions = (count: number) => startAuctions(engineFor(scenario, redis), scenario, count)

test('a browser with JavaScript on and off, and both Socket.IO transports, through nginx', async () => {
  // A client writing its own X-Forwarded-For is not believed: nginx's entry is the address.
  const page = await browser.newPage({
    baseURL: nginx.browserUrl,
    extraHTTPHeaders: { 'X-Forwarded-For': '203.0.113.9' },
  })
  const name = uniqueName('nginx')
  await register(page, name)
  await dismissOnboarding(page)
  const user = await scenario.prisma.user.findUniqueOrThrow({ where: { username: name } })
  expect(user.ipAddress).toBe('127.0.0.1')
  const plain = await browser.newPage({ baseURL: nginx.browserUrl, javaScriptEnabled: false })
  const other = uniqueName('nginxnojs')
  await register(plain, other)

  const [auction] = await liveAuctions(1)
  const { slug } = await scenario.prisma.auction.findUniqueOrThrow({
    where: { id: auction! },
    select: { slug: true },
  })
  const watching = [
    new Viewer(nginx.url, 'websocket', [auction!]),
    new Viewer(nginx.url, 'polling', [auction!]),
  ]
  viewers.push(...watching)
  await Promise.all(watching.map((viewer) => viewer.connected()))

  await page.goto(`/auction/${slug}`)
  await page.getByText('Активный', { exact: true }).first().waitFor({ timeout: 15_000 })
  const since = Date.now()
  await page.getByRole('button', { name: 'Сделать ставку' }).click()
  await page.getByText('Ставка принята').first().waitFor()
  for (const viewer of watching) {
    await waitFor(
      `the ${viewer.transport} viewer's update`,
      async () => viewer.updatesSince(since) > 0,
      5_000,
    )
  }

  // Without JavaScript the second person's bid is a form post and a redirect.
  await plain.goto(`/auction/${slug}`)
  await plain.getByRole('button', { name: 'Сделать ставку' }).click()
  await plain.getByText('Ставка принята').first().waitFor()
  const last = plain.locator('dt:text-is("Последняя ставка") + dd').first()
  expect(await last.textContent()).toBe(other)
  // The page with JavaScript sees it through its socket.
  await page.getByText(other).first().waitFor()
}, 60_000)

/** The failed answers (5xx, or no answer) in [from, to): how many, and over how long. */
function failuresBetween(bidders: Bidders, from: number, to: number) {
  const failed = bidders.outcomes.filter(
    (o) => o.at >= from && o.at < to && (o.status === 'network' || Number(o.status) >= 500),
  )
  const span = failed.length ? failed.at(-1)!.at - failed[0]!.at : 0
  return { count: failed.length, span }
}

test('SIGKILL and a rolling restart behind nginx lose no acknowledged bid', async () => {
  const people = await createPeople(scenario.prisma, 8)
  const auctions = await liveAuctions(3)
  const engine = engineFor(scenario, redis)
  await waitFor(
    'the auctions to start',
    async () => (await engine.getStates(auctions)).every((s) => s?.status === 'live'),
    10_000,
  )
  const watching = [
    new Viewer(nginx.url, 'websocket', auctions),
    new Viewer(nginx.url, 'polling', auctions),
  ]
  viewers.push(...watching)
  await Promise.all(watching.map((viewer) => viewer.connected()))

  const bidders = new Bidders(people, auctions, () => nginx.url)
  bidders.start()
  await sleep(5_000)

  // The instance holding the viewers' sockets (nginx sends one address to one instance).
  const sockets = await Promise.all(apps.map((app) => metric(app, 'pa_sockets')))
  const first = sockets[0]! >= sockets[1]! ? 0 : 1
  const events: { what: string; at: number }[] = []
  const mark = (what: string) => events.push({ what, at: Date.now() })
  const restart = async (index: number) => {
    const port = Number(new URL(apps[index]!.url).port)
    const started = Date.now()
    apps[index] = await startApp({ ...appOptions(), label: `web-${index + 1}`, port })
    say(`web-${index + 1} ready again on port ${port} after ${Date.now() - started} ms`)
  }

  mark(`SIGKILL web-${first + 1}`)
  apps[first]!.child.kill('SIGKILL')
  await waitFor('the killed process to exit', async () => apps[first]!.exited(), 5_000, 20)
  await sleep(3_000)
  mark(`start web-${first + 1}`)
  await restart(first)
  const firstBackAt = Date.now()
  // As a rolling deploy does: longer than nginx's fail_timeout (deploy/nginx/compose/upstreams.conf)
  // after the new instance is ready, so nginx has seen it up before the other one goes.
  await sleep(3_000)
  const second = 1 - first
  mark(`SIGTERM web-${second + 1}`)
  await apps[second]!.stop()
  mark(`start web-${second + 1}`)
  await restart(second)
  await sleep(5_000)
  const last = Date.now()
  await bidders.stop()

  events.forEach((event, i) => {
    const failed = failuresBetween(bidders, event.at, events[i + 1]?.at ?? last)
    say(`${event.what}: ${failed.count} bids failed (5xx or no answer), over ${failed.span} ms`)
  })
  const upstreamErrors = nginx.errors().filter((line) => line.includes('upstream'))
  say(
    `nginx's upstream errors: ${upstreamErrors.length}${upstreamErrors.length ? `, e.g. ${upstreamErrors.slice(0, 3).join(' | ')}` : ''}`,
  )
  for (const viewer of watching) {
    say(
      `${viewer.transport} viewer: outages ${viewer.describeOutages()}; updates ${viewer.updates.length}`,
    )
    // Its instance was killed: it was back, on the other one, before the killed one was ready
    // again (how soon depends on Socket.IO's reconnection delay and the machine's load).
    const killed = events[0]!.at
    const moved = viewer.outages.find((o) => o.from >= killed && o.to && o.to < firstBackAt)
    expect(moved, `${viewer.transport} viewer on the other instance after the kill`).toBeDefined()
    expect(viewer.outages.every((o) => o.to !== undefined)).toBe(true)
    expect(
      viewer.updatesSince(events.at(-1)!.at + 1_000),
      `${viewer.transport} updates at the end`,
    ).toBeGreaterThan(0)
  }
  expect(bidders.acks.filter((a) => a.at > events.at(-1)!.at).length).toBeGreaterThan(10)

  await waitFor(
    'the auctions to finish',
    async () => (await engine.getStates(auctions)).every((s) => s?.status === 'finished'),
    20_000,
  )
  // Entries the killed instance had taken are claimed after 30 s idle.
  const drainMs = await waitDrained(engine, 60_000)
  say(`outbox drained ${drainMs} ms after the auctions finished`)
  const bidLines = nginx.log().filter((line) => /"POST \/api\/auctions\/\S+\/bid /.test(line))
  const retried = bidLines.filter((line) => /upstream=\S+, /.test(line)).length
  say(
    `bid requests in nginx's log: ${bidLines.length}, passed to the other instance after a refused connection: ${retried}; ` +
      `answers: ${JSON.stringify(bidders.statuses())}`,
  )
  await account('behind nginx', engine, auctions, people, bidders.acks)
}, 170_000)
