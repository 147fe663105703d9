import type { AddressInfo } from 'node:net'
import { io as connect, type Socket as ClientSocket } from 'socket.io-client'
import { afterAll, expect, test, vi } from 'vitest'
import { Engine } from '../engine/index.ts'
import { createUser, liveAuction, sleep, testEngine } from '../engine/test-support.ts'
import { TIMER_SLICE_SOCKETS, type attachRealtime } from './realtime.ts'
import { realtimeServer } from './realtime-test-server.ts'

// Real Socket.IO servers, a real engine on real Redis and Postgres.
const cleanups: Array<() => Promise<unknown> | void> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

type Update = { auction: { id: string; currentPrice: number; totalBids: number } }

async function instance(
  engine: Engine,
  signedIn: string | null = null,
  limits?: Parameters<typeof attachRealtime>[0]['limits'],
) {
  const { http, io, realtime, listen } = realtimeServer(engine, {
    // The handshake's Cookie header stands for the session id here.
    sessionFromCookie: (cookie) =>
      Promise.resolve(signedIn ? { id: cookie ?? 'a-session', userId: signedIn } : null),
    limits,
  })
  await realtime.ready()
  await listen()
  const clients: ClientSocket[] = []
  let closed = false
  const close = async () => {
    if (closed) return
    closed = true
    for (const client of clients) client.disconnect()
    await new Promise<void>((resolve) => io.close(() => resolve()))
    await realtime.close()
  }
  cleanups.push(close)
  return {
    close,
    /** The auction rooms this instance holds, with how many of its sockets are in each. */
    auctionRooms: () =>
      new Map(
        [...io.of('/').adapter.rooms]
          .filter(([room]) => room.startsWith('auction:'))
          .map(([room, sockets]) => [room.slice('auction:'.length), sockets.size]),
      ),
    /** A bare socket, connected. */
    async socket() {
      const { port } = http.address() as AddressInfo
      const client = connect(`http://127.0.0.1:${port}`, { transports: ['websocket'] })
      clients.push(client)
      await new Promise<void>((resolve) => client.on('connect', resolve))
      return client
    },
    /** A visitor following the auction, with every `auctionUpdate` it receives. */
    async visitor(auctionId: string) {
      const { port } = http.address() as AddressInfo
      const client = connect(`http://127.0.0.1:${port}`, { transports: ['websocket'] })
      clients.push(client)
      const received: Update[] = []
      client.on('auctionUpdate', (update: Update) => received.push(update))
      await new Promise<void>((resolve) => client.on('connect', resolve))
      client.emit('joinAuction', auctionId)
      // The state on joining.
      await until(() => received.length === 1)
      return Object.assign(received, { leave: () => void client.emit('leaveAuction', auctionId) })
    },
    /** A socket with every `timerUpdate` it receives. */
    async timers() {
      const { port } = http.address() as AddressInfo
      const client = connect(`http://127.0.0.1:${port}`, {
        transports: ['websocket'],
        forceNew: true,
      })
      clients.push(client)
      const received: Array<Record<string, number>> = []
      client.on('timerUpdate', (update: (typeof received)[number]) => received.push(update))
      await new Promise<void>((resolve) => client.on('connect', resolve))
      return received
    },
    /** A socket of the session `cookie` names, and how it was closed once it is. */
    async session(cookie: string) {
      const { port } = http.address() as AddressInfo
      const client = connect(`http://127.0.0.1:${port}`, {
        transports: ['websocket'],
        forceNew: true,
        reconnection: false,
        extraHeaders: { Cookie: cookie },
      })
      clients.push(client)
      const closed: string[] = []
      client.on('disconnect', (reason) => closed.push(reason))
      await new Promise<void>((resolve) => client.on('connect', resolve))
      return closed
    },
    /** The signed-in person's socket, with every `bidBalanceUpdate` it receives. */
    async person() {
      const { port } = http.address() as AddressInfo
      const client = connect(`http://127.0.0.1:${port}`, { transports: ['websocket'] })
      clients.push(client)
      const received: Array<{ userId: string; bidBalance: number }> = []
      client.on('bidBalanceUpdate', (event: { userId: string; bidBalance: number }) =>
        received.push(event),
      )
      await new Promise<void>((resolve) => client.on('connect', resolve))
      return received
    },
  }
}

// Every wait is for something that comes: as long as a loaded machine may take for it.
const until = async (check: () => boolean, ms = 15_000) => {
  const end = Date.now() + ms
  while (!check() && Date.now() < end) await sleep(10)
  return check()
}

test('an auction nobody follows gets no update built; a visitor, here or on another instance, gets each', async () => {
  const { engine, prisma } = testEngine()
  const views = vi.spyOn(engine, 'getAuctionView')
  const auction = await liveAuction(engine)
  const people = [await createUser(prisma), await createUser(prisma), await createUser(prisma)]
  const first = await instance(engine)

  // Alone and unwatched: the bid is placed, nothing is read back for an update.
  expect((await engine.bid(auction.id, people[0]!.id)).ok).toBe(true)
  await sleep(100)
  expect(views).not.toHaveBeenCalled()

  // Someone follows it: they get the state on joining (with that bid), then every bid.
  const here = await first.visitor(auction.id)
  expect(here[0]!.auction).toMatchObject({ id: auction.id, totalBids: 1 })
  await sleep(1010)
  expect((await engine.bid(auction.id, people[1]!.id)).ok).toBe(true)
  expect(await until(() => here.length === 2)).toBe(true)
  expect(here[1]!.auction.totalBids).toBe(2)

  // Another instance (its own engine on the same Redis) with a visitor of its own: a bid
  // through the first reaches that visitor, though nobody follows it on the first any more.
  const prefix = engine.keys.base.slice(1, -2)
  const second = await instance(new Engine({ redis: engine.redis, prisma, prefix }))
  const there = await second.visitor(auction.id)
  here.leave()
  await sleep(1010)
  views.mockClear()
  expect((await engine.bid(auction.id, people[2]!.id)).ok).toBe(true)
  expect(await until(() => there.length === 2)).toBe(true)
  expect(there[1]!.auction.totalBids).toBe(3)
  expect(views).toHaveBeenCalled()
  expect(here).toHaveLength(2)
  await second.close()
  await first.close()
})

test("a bid tells the bidder's own sockets the new bid balance", async () => {
  const { engine, prisma } = testEngine()
  const auction = await liveAuction(engine)
  const bidder = await createUser(prisma)
  const server = await instance(engine, bidder.id)
  const balances = await server.person()
  await sleep(100)
  expect((await engine.bid(auction.id, bidder.id)).ok).toBe(true)
  expect(await until(() => balances.length === 1)).toBe(true)
  expect(balances[0]).toEqual({ userId: bidder.id, bidBalance: bidder.bidBalance - 1 })
  expect(await engine.getBalance(bidder.id)).toBe(bidder.bidBalance - 1)
  await server.close()
})

test("a session's end closes its sockets on every instance; the account's end closes all of them", async () => {
  const { engine, prisma } = testEngine()
  const person = await createUser(prisma)
  const prefix = engine.keys.base.slice(1, -2)
  const first = await instance(engine, person.id)
  const second = await instance(new Engine({ redis: engine.redis, prisma, prefix }), person.id)
  const laptopHere = await first.session('laptop')
  const laptopThere = await second.session('laptop')
  const phone = await second.session('phone')
  const anonymous = await instance(new Engine({ redis: engine.redis, prisma, prefix }))
  const visitor = await anonymous.timers()
  await sleep(100)

  // A logout on the first instance: that session's sockets close, here and there.
  engine.emit('signedOut', { sessionId: 'laptop' })
  expect(await until(() => laptopHere.length === 1 && laptopThere.length === 1)).toBe(true)
  expect([...laptopHere, ...laptopThere]).toEqual(['io server disconnect', 'io server disconnect'])
  await sleep(300)
  expect(phone).toEqual([])

  // Logging out everywhere (or the account deleted): every socket of the account closes.
  engine.emit('signedOut', { userId: person.id })
  expect(await until(() => phone.length === 1)).toBe(true)
  expect(phone).toEqual(['io server disconnect'])
  // Anyone else's socket stays: it still gets the timer map.
  engine.emit('timers', { at: Date.now(), timers: {} })
  expect(await until(() => visitor.length === 1)).toBe(true)
  await anonymous.close()
  await second.close()
  await first.close()
})

test('the 1 Hz timer map reaches every socket once, in slices, on this instance and the others', async () => {
  const { engine, prisma } = testEngine()
  const leader = await instance(engine)
  // A second instance whose engine is not the leader: its sockets hear the leader's map.
  const prefix = engine.keys.base.slice(1, -2)
  const other = await instance(new Engine({ redis: engine.redis, prisma, prefix }))
  const count = TIMER_SLICE_SOCKETS * 2 + 37
  const here = await Promise.all(Array.from({ length: count }, () => leader.timers()))
  const there = await Promise.all(Array.from({ length: 3 }, () => other.timers()))

  for (const [round, sentAt] of [Date.now(), Date.now() + 1000].entries()) {
    engine.emit('timers', { at: sentAt, timers: { a: 9_001, b: 250 } })
    const everyone = [...here, ...there]
    expect(await until(() => everyone.every((got) => got.length === round + 1), 10_000)).toBe(true)
    for (const got of everyone) expect(got[round]).toEqual({ a: 10, b: 1 })
  }
  await sleep(200)
  expect([...here, ...there].every((got) => got.length === 2)).toBe(true)
  await other.close()
  await leader.close()
}, 60_000)

test('a socket follows only auctions the engine holds, a bounded number of them, joined at a bounded pace', async () => {
  const { engine } = testEngine()
  const auctions = [await liveAuction(engine), await liveAuction(engine), await liveAuction(engine)]
  const server = await instance(engine, null, { auctionsPerSocket: 2, joinsPerWindow: 5 })
  const socket = await server.socket()
  const updates: Update[] = []
  socket.on('auctionUpdate', (update: Update) => updates.push(update))

  // Ids of nothing, and things that are no id: no room is made, nothing is sent.
  for (const id of ['no-such-auction', 'x'.repeat(65), '../auction', 42, { id: auctions[0]!.id }])
    socket.emit('joinAuction', id)
  await sleep(300)
  expect(server.auctionRooms().size).toBe(0)
  expect(updates).toHaveLength(0)

  // Two auctions at most: the third is not followed until one is left.
  for (const auction of auctions) socket.emit('joinAuction', auction.id)
  expect(await until(() => updates.length === 2)).toBe(true)
  await sleep(200)
  expect([...server.auctionRooms().keys()].sort()).toEqual(
    [auctions[0]!.id, auctions[1]!.id].sort(),
  )
  socket.emit('leaveAuction', auctions[0]!.id)
  socket.emit('joinAuction', auctions[2]!.id)
  expect(await until(() => server.auctionRooms().has(auctions[2]!.id))).toBe(true)
  expect(server.auctionRooms().has(auctions[0]!.id)).toBe(false)

  // Five joins of ids that look right in this window (one of nothing): the sixth is ignored.
  socket.emit('leaveAuction', auctions[1]!.id)
  socket.emit('joinAuction', auctions[1]!.id)
  await sleep(300)
  expect(server.auctionRooms().has(auctions[1]!.id)).toBe(false)
  await server.close()
})
