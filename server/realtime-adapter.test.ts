import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Redis } from 'ioredis'
import { Server } from 'socket.io'
import { io as connect, type Socket as ClientSocket } from 'socket.io-client'
import { afterAll, describe, expect, test } from 'vitest'
import { roomsAcrossInstances } from './realtime-adapter.ts'

// Two Socket.IO servers on one real Redis, as two web instances are.
const key = `${process.env.REDIS_PREFIX}:rooms-test`
const cleanups: Array<() => Promise<void> | void> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

async function instance() {
  const redis = new Redis(process.env.REDIS_URL!)
  const pub = redis.duplicate()
  const sub = redis.duplicate()
  const rooms = roomsAcrossInstances(pub, sub, key)
  const http = createServer()
  const io = new Server(http)
  io.adapter(rooms.adapter)
  await rooms.ready()
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  io.on('connection', (socket) => void socket.join('auction:1'))
  const clients: ClientSocket[] = []
  let closed = false
  const close = async () => {
    if (closed) return
    closed = true
    for (const client of clients) client.disconnect()
    rooms.close()
    await new Promise<void>((resolve) => io.close(() => resolve()))
    await Promise.all([pub.quit(), sub.quit(), redis.quit()].map((p) => p.catch(() => {})))
  }
  cleanups.push(close)
  return {
    io,
    rooms,
    close,
    /** A visitor in the auction's room, with every `update` it receives. */
    async visitor() {
      const { port } = http.address() as AddressInfo
      const client = connect(`http://127.0.0.1:${port}`, { transports: ['websocket'] })
      clients.push(client)
      const received: unknown[] = []
      client.on('update', (value: unknown) => received.push(value))
      await new Promise<void>((resolve) => client.on('connect', resolve))
      // Joined once the server has handled the connection.
      await new Promise((resolve) => setTimeout(resolve, 50))
      return received
    },
  }
}

/** Messages published on the adapter's room channels, read by a plain subscriber. */
async function tapPublications() {
  const tap = new Redis(process.env.REDIS_URL!)
  let count = 0
  tap.on('pmessageBuffer', () => count++)
  await tap.psubscribe(`${key}#*`)
  cleanups.push(() => void tap.disconnect())
  return () => count
}

const until = async (check: () => boolean, ms = 3_000) => {
  const end = Date.now() + ms
  while (!check() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 10))
  return check()
}

describe('rooms across instances', () => {
  test('alone, an instance broadcasts to its own visitors without publishing to Redis', async () => {
    const published = await tapPublications()
    const first = await instance()
    const received = await first.visitor()
    expect(first.rooms.others()).toBe(0)
    for (let i = 0; i < 5; i++) first.io.to('auction:1').emit('update', i)
    expect(await until(() => received.length === 5)).toBe(true)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(published()).toBe(0)

    // A second instance says hello: the first publishes to it from then on, without waiting
    // for its next count.
    const second = await instance()
    expect(await until(() => first.rooms.others() === 1, 500)).toBe(true)
    const there = await second.visitor()
    first.io.to('auction:1').emit('update', 'to both')
    second.io.to('auction:1').emit('update', 'from the second')
    expect(await until(() => there.length === 2 && received.length === 7)).toBe(true)
    // Each instance's own visitors get its broadcast at once, the other's through Redis.
    expect(there.toSorted()).toEqual(['from the second', 'to both'])
    expect(received.slice(5).toSorted()).toEqual(['from the second', 'to both'])
    expect(published()).toBe(2)

    // Once the second is gone, the first's next count finds it alone again.
    await second.close()
    expect(await until(() => first.rooms.others() === 0, 2_500)).toBe(true)
    const before = published()
    first.io.to('auction:1').emit('update', 'alone again')
    expect(await until(() => received.length === 8)).toBe(true)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(published()).toBe(before)
    await first.close()
  })

  test("an instance's own publications are known by their head and not decoded", async () => {
    const one = await instance()
    const adapter = one.io.of('/').adapter as unknown as {
      uid: string
      isOwn(message: unknown): boolean
      parser: { encode(value: unknown): Buffer }
    }
    const encode = (value: unknown) => adapter.parser.encode(value)
    expect(adapter.isOwn(encode([adapter.uid, { type: 2, data: ['update', 1] }, {}]))).toBe(true)
    expect(adapter.isOwn(encode(['zzzzzz', { type: 2, data: ['update', 1] }, {}]))).toBe(false)
    expect(adapter.isOwn(Buffer.alloc(0))).toBe(false)
    await one.close()
  })
})
