import { io, type Socket } from 'socket.io-client'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { createBotDrivenAuction, untilLive } from './auctions.ts'

// Real Socket.IO against the production server; the seeded live auctions have bots bidding.
let live: string[] = []
const sockets: Socket[] = []

beforeAll(async () => {
  // Auctions of this file's own, kept live by bots (seeded ones may have ended by now).
  const a = await createBotDrivenAuction(`Эфир ${Date.now()} A`)
  const b = await createBotDrivenAuction(`Эфир ${Date.now()} B`)
  live = [a.id, b.id]
  await Promise.all(live.map((id) => untilLive(id)))
})

afterAll(() => {
  for (const socket of sockets) socket.close()
})

function connect(headers: Record<string, string> = {}): Socket {
  const socket = io(inject('baseUrl'), {
    transports: ['websocket'],
    extraHeaders: headers,
    reconnection: false,
    timeout: 5000,
  })
  sockets.push(socket)
  return socket
}

const once = <T>(socket: Socket, event: string, timeoutMs = 15_000) =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no ${event} within ${timeoutMs} ms`)),
      timeoutMs,
    )
    socket.once(event, (payload: T) => {
      clearTimeout(timer)
      resolve(payload)
    })
  })

/** Resolves once `socket` has heard `count` more bids on each auction named (its updates). */
function newBids(socket: Socket, counts: Record<string, number>, timeoutMs = 20_000) {
  const start = new Map<string, number>()
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off('auctionUpdate', onUpdate)
      reject(new Error(`fewer new bids than ${JSON.stringify(counts)} within ${timeoutMs} ms`))
    }, timeoutMs)
    const left = { ...counts }
    function onUpdate(update: { auction: { id: string; totalBids: number } }) {
      const { id, totalBids } = update.auction
      if (!(id in left)) return
      if (!start.has(id)) start.set(id, totalBids)
      if (totalBids - start.get(id)! >= counts[id]!) delete left[id]
      if (Object.keys(left).length > 0) return
      clearTimeout(timer)
      socket.off('auctionUpdate', onUpdate)
      resolve()
    }
    socket.on('auctionUpdate', onUpdate)
  })
}

describe('real time', () => {
  test('timerUpdate arrives every second with every live auction', async () => {
    expect(live.length).toBeGreaterThanOrEqual(2)
    const socket = connect()
    // The payload is the map itself: auction id -> whole seconds left.
    const first = await once<Record<string, number>>(socket, 'timerUpdate')
    const firstAt = Date.now()
    const second = await once<Record<string, number>>(socket, 'timerUpdate')
    expect(Date.now() - firstAt).toBeGreaterThanOrEqual(700)
    expect(Date.now() - firstAt).toBeLessThan(1700)
    for (const id of live) {
      expect(first[id]).toBeGreaterThanOrEqual(0)
      expect(first[id]).toBeLessThanOrEqual(10)
      expect(Number.isInteger(second[id])).toBe(true)
    }
    expect(Object.values(first).every((seconds) => Number.isInteger(seconds))).toBe(true)
  })

  test('auctionUpdate goes only to the rooms of the auction that changed', async () => {
    const [x, y] = live as [string, string]
    const inX = connect()
    const inY = connect()
    await Promise.all([once(inX, 'connect'), once(inY, 'connect')])
    inX.emit('joinAuction', x)
    inY.emit('joinAuction', y)
    const seenByX = new Set<string>()
    const seenByY = new Set<string>()
    inX.on('auctionUpdate', (update: { auction: { id: string } }) => seenByX.add(update.auction.id))
    inY.on('auctionUpdate', (update: { auction: { id: string } }) => seenByY.add(update.auction.id))
    type Update = {
      auction: {
        id: string
        currentPrice: number
        timeLeft: number
        status: string
        totalBids: number
      }
      bids: Array<{ amount: number; isBot: boolean }>
      timers: Record<string, number>
    }
    // Joining brings the current state at once, whatever the page showed before.
    const snapshot = await once<Update>(inX, 'auctionUpdate', 3000)
    expect(snapshot.auction.id).toBe(x)
    expect(snapshot.auction.status).toBe('live')
    expect(Object.keys(snapshot.timers)).toEqual([x])
    // The next bid (a bot's) brings its own update.
    const update = await new Promise<Update>((resolve) => {
      const onUpdate = (next: Update) => {
        if (next.auction.totalBids <= snapshot.auction.totalBids) return
        inX.off('auctionUpdate', onUpdate)
        resolve(next)
      }
      inX.on('auctionUpdate', onUpdate)
    })
    expect(update.auction.id).toBe(x)
    expect(update.auction.status).toBe('live')
    expect(update.auction.timeLeft).toBeGreaterThan(8000)
    expect(update.bids[0]!.amount).toBe(update.auction.currentPrice)
    // Both auctions go on taking bids (seen by a socket in both rooms); each room heard only
    // its own.
    const watcher = connect()
    await once(watcher, 'connect')
    watcher.emit('joinAuction', x)
    watcher.emit('joinAuction', y)
    await newBids(watcher, { [x]: 2, [y]: 2 })
    expect([...seenByX]).toEqual([x])
    expect([...seenByY]).toEqual([y])

    // After leaving, nothing more arrives, while the auction goes on.
    inX.emit('leaveAuction', x)
    // The leave is taken once a later message of the same socket is: a join's answer.
    inX.emit('joinAuction', y)
    await new Promise<void>((resolve) => {
      const onUpdate = (next: Update) => {
        if (next.auction.id !== y) return
        inX.off('auctionUpdate', onUpdate)
        resolve()
      }
      inX.on('auctionUpdate', onUpdate)
    })
    inX.emit('leaveAuction', y)
    seenByX.clear()
    await newBids(watcher, { [x]: 2 })
    expect(seenByX.has(x)).toBe(false)
  }, 40_000)

  test('the room hears how many follow the auction, across joins and leaves', async () => {
    // An auction only this test's two sockets follow, so every count is theirs.
    const { id } = await createBotDrivenAuction(`Зрители ${Date.now()}`)
    await untilLive(id)
    const first = connect()
    const second = connect()
    await Promise.all([once(first, 'connect'), once(second, 'connect')])
    const counts: number[] = []
    first.on('viewers', (event: { auctionId: string; count: number }) => {
      if (event.auctionId === id) counts.push(event.count)
    })
    first.emit('joinAuction', id)
    second.emit('joinAuction', id)
    await expect.poll(() => counts.at(-1), { timeout: 5000 }).toBe(2)
    const together = 2
    second.emit('leaveAuction', id)
    await expect.poll(() => counts.at(-1), { timeout: 5000 }).toBe(together - 1)
    second.emit('joinAuction', id)
    await expect.poll(() => counts.at(-1), { timeout: 5000 }).toBe(together)
    second.close()
    await expect.poll(() => counts.at(-1), { timeout: 5000 }).toBe(together - 1)
  })

  test('a socket from another site is refused', async () => {
    const socket = connect({ Origin: 'https://evil.example' })
    const error = await once<Error>(socket, 'connect_error')
    expect(error.message).toBe('origin not allowed')
  })
})
