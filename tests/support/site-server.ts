import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'

// What the test sites (freedompay-site.ts, telegram-site.ts) share: the engine as the app makes
// it, and the app's handler served over HTTP on this host for a fake provider to call.

/** The engine as the app makes it, on the environment of the moment (so: set that first). */
export async function appEngine() {
  const { Engine } = await import('../../engine/index.ts')
  const { getRedis } = await import('../../app/utils/redis.server.ts')
  const { getPrisma } = await import('../../app/utils/db.server.ts')
  const { getEnv } = await import('../../app/utils/env.server.ts')
  const prisma = getPrisma()
  const engine = new Engine({ redis: getRedis(), prisma, prefix: getEnv().REDIS_PREFIX })
  return { engine, prisma, env: getEnv() }
}

/**
 * `handle` served on a free port of this host: each request handed to it as a Fetch Request, and
 * its Response sent back.
 */
export async function serveOnThisHost(handle: (request: Request) => Promise<Response>) {
  const server = createServer((req, res) => {
    void (async () => {
      const response = await handle(await toRequest(req))
      res.writeHead(response.status, Object.fromEntries(response.headers))
      res.end(await response.text())
    })()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { server, origin: `http://127.0.0.1:${port}` }
}

async function toRequest(req: IncomingMessage) {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers))
    if (typeof value === 'string') headers.set(name, value)
  return new Request(`http://127.0.0.1${req.url ?? '/'}`, {
    method: req.method,
    headers,
    body: req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.concat(chunks),
  })
}
