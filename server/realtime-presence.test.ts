import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Server } from 'socket.io'
import { io as connect } from 'socket.io-client'
import { afterAll, expect, test } from 'vitest'
import { createUser, liveAuction, sleep, testEngine } from '../engine/test-support.ts'
import { isPresent } from '../app/services/alerts/presence.server.ts'
import { attachRealtime } from './realtime.ts'

// The auction page's presence in Redis (docs/decisions/058-watchlist-and-outbid.md): a real
// Socket.IO server, a real engine on real Redis. Only a join from the auction's own page counts.

const { engine, prisma } = testEngine()
const prefix = engine.keys.base.slice(1, -2)
const cleanups: Array<() => Promise<unknown> | void> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

async function server(userId: string) {
  const http = createServer()
  const io = new Server(http)
  const realtime = attachRealtime({
    io,
    engine,
    redis: engine.redis,
    prefix,
    sessionFromCookie: () => Promise.resolve({ id: 'a-session', userId }),
    isAllowedOrigin: () => true,
  })
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  cleanups.push(async () => {
    await new Promise<void>((resolve) => io.close(() => resolve()))
    await realtime.close()
  })
  const { port } = http.address() as AddressInfo
  const client = connect(`http://127.0.0.1:${port}`, { transports: ['websocket'] })
  cleanups.push(() => void client.disconnect())
  await new Promise<void>((resolve) => client.on('connect', resolve))
  return client
}

const until = async (check: () => Promise<boolean>, ms = 3_000) => {
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
