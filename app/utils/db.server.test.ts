import net from 'node:net'
import { afterAll, expect, test } from 'vitest'
import { isUnavailable } from '~/utils/logger.server.ts'
import { createPrismaClient, POOL_WAIT_MS } from './db.server.ts'

// A Postgres that takes connections and never answers them (a host under load, a stuck proxy).
const sockets = new Set<net.Socket>()
const silent = net.createServer((socket) => {
  sockets.add(socket)
  socket.on('close', () => sockets.delete(socket))
})
await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
const port = (silent.address() as net.AddressInfo).port

afterAll(async () => {
  for (const socket of sockets) socket.destroy()
  await new Promise((resolve) => silent.close(resolve))
})

test(
  'a query that cannot get a connection fails as an outage after the pool wait, not never',
  async () => {
    const prisma = createPrismaClient(`postgresql://postgres@127.0.0.1:${port}/postgres`)
    const started = Date.now()
    const error = await prisma.$queryRaw`SELECT 1`.then(
      () => null,
      (failure: unknown) => failure,
    )
    const waited = Date.now() - started
    expect(error).not.toBeNull()
    expect(isUnavailable(error)).toBe(true)
    expect(waited).toBeGreaterThanOrEqual(POOL_WAIT_MS - 100)
    await prisma.$disconnect().catch(() => {})
  },
  POOL_WAIT_MS * 3,
)
