import type { AddressInfo } from 'node:net'
import { io as connect } from 'socket.io-client'
import { afterAll, expect, test, vi } from 'vitest'
import { createUser, liveAuction, sleep, testEngine } from '../engine/test-support.ts'
import { isPresent } from '../app/services/alerts/presence.server.ts'
import { realtimeServer } from './realtime-test-server.ts'
import { pagePresence, PAGES_PER_SOCKET, VISITS_PER_WRITE } from './realtime-presence.ts'

// The auction page's presence in Redis (docs/decisions/058-watchlist-and-outbid.md): a real
// Socket.IO server, a real engine on real Redis. Only a join from the auction's own page counts.

const { engine, prisma } = testEngine()
const prefix = engine.keys.base.slice(1, -2)
const cleanups: Array<() => Promise<unknown> | void> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

async function server(userId: string, presenceRenewMs?: number) {
  const { http, io, realtime, listen } = realtimeServer(engine, {
    sessionFromCookie: () => Promise.resolve({ id: 'a-session', userId }),
    ...(presenceRenewMs ? { presenceRenewMs } : {}),
  })
  await listen()
  cleanups.push(async () => {
    await new Promise<void>((resolve) => io.close(() => resolve()))
    await realtime.close()
  })
  const { port } = http.address() as AddressInfo
  const client = connect(`http://127.0.0.1:${port}`, { transports: ['websocket'] })
  cleanups.push(() => void client.disconnect())
  await new Promise<void>((resolve) => client.on('connect', resolve))
  return Object.assign(client, { pagesOpen: realtime.pagesOpen })
}

// Every wait is for something that comes: as long as a loaded machine may take for it.
const until = async (check: () => Promise<boolean>, ms = 15_000) => {
  const end = Date.now() + ms
  while (!(await check()) && Date.now() < end) await sleep(10)
  return check()
}

test('the auction page counts as open while its socket follows it, a card does not', async () => {
  const auction = await liveAuction(engine)
  const person = await createUser(prisma)
  const here = () => isPresent(engine.redis, prefix, person.id, auction.id)
  const client = await server(person.id)
  // A card's join: the state comes back, and the page is not counted as open.
  const joined = new Promise((resolve) => client.once('auctionUpdate', resolve))
  client.emit('joinAuction', auction.id)
  await joined
  expect(await here()).toBe(false)
  client.emit('joinAuction', auction.id, { page: true })
  expect(await until(here)).toBe(true)
  client.emit('leaveAuction', auction.id)
  expect(await until(async () => !(await here()))).toBe(true)
  client.emit('joinAuction', auction.id, { page: true })
  expect(await until(here)).toBe(true)
  client.disconnect()
  expect(await until(async () => !(await here()))).toBe(true)
})

/** The size of every Redis MULTI started from now on (its commands, MULTI itself included). */
function multiSizes() {
  const sizes: number[] = []
  const multi = engine.redis.multi.bind(engine.redis)
  const spy = vi.spyOn(engine.redis, 'multi').mockImplementation(((...args: never[]) => {
    const pipeline = multi(...args)
    const exec = pipeline.exec.bind(pipeline)
    pipeline.exec = ((...execArgs: Parameters<typeof exec>) => {
      sizes.push(pipeline.length)
      return exec(...execArgs)
    }) as typeof pipeline.exec
    return pipeline
  }) as typeof engine.redis.multi)
  cleanups.push(() => spy.mockRestore())
  return sizes
}

/** The person's auctions counted open in Redis. */
async function pagesInRedis(userId: string) {
  const keys: string[] = []
  let cursor = '0'
  do {
    const [next, found] = await engine.redis.scan(
      cursor,
      'MATCH',
      `{${prefix}}:alerts:here:*:${userId}`,
      'COUNT',
      1000,
    )
    cursor = next
    keys.push(...found)
  } while (cursor !== '0')
  return keys.length
}

/** Those of the auctions whose page the person has open, by Redis. */
async function openOf(userId: string, auctions: Array<{ id: string }>) {
  const here = await Promise.all(
    auctions.map((auction) => isPresent(engine.redis, prefix, userId, auction.id)),
  )
  return auctions.filter((_, i) => here[i])
}

test('a socket flooding page joins of made-up ids and real auctions counts only real pages, a few', async () => {
  const real = await Promise.all(
    Array.from({ length: PAGES_PER_SOCKET + 2 }, () => liveAuction(engine)),
  )
  const person = await createUser(prisma)
  const client = await server(person.id, 100)
  const updates: unknown[] = []
  client.on('auctionUpdate', (update) => updates.push(update))
  const sizes = multiSizes()

  // Real auctions' pages first (more than a tab can show), then thousands of ids of nothing.
  for (const auction of real) client.emit('joinAuction', auction.id, { page: true })
  for (let i = 0; i < 3_000; i++) client.emit('joinAuction', `made-up-${i}`, { page: true })
  expect(await until(async () => updates.length === real.length, 10_000)).toBe(true)
  await sleep(300)

  // Only pages of auctions that exist, and no more than a socket may have open, are kept, in
  // this instance's memory and in Redis; renewals write them in small MULTIs.
  expect(await pagesInRedis(person.id)).toBe(PAGES_PER_SOCKET)
  expect(await openOf(person.id, real)).toHaveLength(PAGES_PER_SOCKET)
  expect(sizes.length).toBeGreaterThan(0)
  expect(Math.max(...sizes)).toBeLessThanOrEqual(2 * PAGES_PER_SOCKET + 1)
  expect(client.pagesOpen()).toBe(PAGES_PER_SOCKET)
}, 30_000)

test('a socket with as many pages open as it may gets another counted once it leaves one', async () => {
  const real = await Promise.all(
    Array.from({ length: PAGES_PER_SOCKET + 1 }, () => liveAuction(engine)),
  )
  const person = await createUser(prisma)
  const client = await server(person.id)
  const updates: unknown[] = []
  client.on('auctionUpdate', (update) => updates.push(update))
  for (const auction of real) client.emit('joinAuction', auction.id, { page: true })
  expect(await until(async () => updates.length === real.length)).toBe(true)
  const counted = await openOf(person.id, real)
  expect(counted).toHaveLength(PAGES_PER_SOCKET)
  const left = counted[0]!
  const waiting = real.find((auction) => !counted.includes(auction))!
  client.emit('leaveAuction', left.id)
  client.emit('joinAuction', waiting.id, { page: true })
  expect(await until(() => isPresent(engine.redis, prefix, person.id, waiting.id))).toBe(true)
  expect(await isPresent(engine.redis, prefix, person.id, left.id)).toBe(false)
  expect(client.pagesOpen()).toBe(PAGES_PER_SOCKET)
})

test('many open pages are renewed in MULTIs of a bounded size, each of them', async () => {
  const sizes = multiSizes()
  const presence = pagePresence(engine.redis, prefix, { renewMs: 100 })
  cleanups.push(() => presence.close())
  const visits = Array.from({ length: 1_000 }, (_, i) => ({
    socketId: `socket-${i}`,
    userId: `person-${i % 7}`,
    auctionId: `auction-${i % 13}`,
  }))
  for (const visit of visits) presence.here(visit)
  const renewed = () => sizes.filter((size) => size > 3).reduce((sum, size) => sum + size, 0)
  // One whole renewal: each visit is two commands, each MULTI one more.
  expect(await until(async () => renewed() >= visits.length * 2, 5_000)).toBe(true)
  expect(Math.max(...sizes)).toBeLessThanOrEqual(2 * VISITS_PER_WRITE + 1)
  expect(presence.size()).toBe(visits.length)
  for (const visit of visits) presence.socketGone(visit.socketId)
  expect(presence.size()).toBe(0)
})
