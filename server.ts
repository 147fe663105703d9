// The one process: Express + Remix + Socket.IO + the bid engine (docs/architecture.md#the-shape).
import { createEngineRuntime } from './engine/index.ts'
import { errorFields, log } from './app/utils/logger.server.ts'
import { getRedis } from './app/utils/redis.server.ts'
import { sessionFromCookieHeader } from './app/services/session.server.ts'
import { watchSettings } from './app/services/settings-sync.server.ts'
import { getPrisma } from './app/utils/db.server.ts'
import { EnvError, parseEnv, type Env } from './app/utils/env.server.ts'
import { createAppServer } from './server/app.ts'
import { registerMetrics } from './server/metrics.ts'
import { attachRealtime } from './server/realtime.ts'

function loadEnv(): Env {
  try {
    return parseEnv()
  } catch (error) {
    if (error instanceof EnvError) {
      process.stderr.write(`${error.message}\n`)
      process.exit(1)
    }
    throw error
  }
}

const env = loadEnv()
const redis = getRedis()
const prisma = getPrisma()

const runtime = createEngineRuntime({
  redis,
  prisma,
  prefix: env.REDIS_PREFIX,
  log,
  databaseUrl: env.DATABASE_URL,
  workers: env.ENGINE_WORKERS,
  replicas: { count: env.REDIS_WAIT_REPLICAS, timeoutMs: env.REDIS_WAIT_TIMEOUT_MS },
})

const server = await createAppServer(env, {
  engine: runtime.engine,
  redis,
  pingDatabase: async () => {
    await prisma.$queryRaw`SELECT 1`
  },
})

registerMetrics(runtime.engine, server.io)
// Another instance's save of the site settings reaches this one within a fraction of a second.
const settingsWatch = watchSettings(runtime.engine)
// Asks providers about payments whose callback never came, on the lease holder only
// (app/services/payments/reconcile.server.ts, exported by app/entry.server.tsx).
const entry = (await server.serverBuild()).entry.module as {
  startPaymentReconciler?: (engine: typeof runtime.engine) => { stop(): void }
  startDemoKeeper?: (engine: typeof runtime.engine, env: Env) => { stop(): void } | null
  startAlerts?: (
    engine: typeof runtime.engine,
    outbox: typeof runtime.outbox,
  ) => { stop(): Promise<void> }
}
const reconciler = entry.startPaymentReconciler?.(runtime.engine)
// DEMO_MODE only: keeps a demo's auctions running, on the lease holder (docs/decisions/048-demo-keeper.md).
const demoKeeper = entry.startDemoKeeper?.(runtime.engine, env)
// Alerts: the queue's consumer here, its producers (app/services/alerts/start.server.ts).
const alerts = entry.startAlerts?.(runtime.engine, runtime.outbox)

const realtime = attachRealtime({
  io: server.io,
  engine: runtime.engine,
  redis,
  prefix: env.REDIS_PREFIX,
  sessionFromCookie: sessionFromCookieHeader,
  isAllowedOrigin: (origin, host) => {
    if (!origin) return true
    if (env.PUBLIC_ORIGIN) return origin === env.PUBLIC_ORIGIN
    try {
      return new URL(origin).host === host
    } catch {
      return false
    }
  },
})

try {
  await runtime.start()
} catch (error) {
  log.error('engine failed to start', errorFields(error))
  process.exit(1)
}

// The other instances learn of this one before its first visitor can join a room (bounded:
// a Redis that does not answer is the readiness check's to report).
await Promise.race([
  realtime.ready().catch((error: unknown) => log.warn('realtime not ready', errorFields(error))),
  new Promise((resolve) => setTimeout(resolve, 5_000).unref()),
])

server.httpServer.listen(env.PORT, env.HOST, () => {
  const address = server.httpServer.address()
  const port = typeof address === 'object' && address ? address.port : env.PORT
  log.info('listening', { url: `http://localhost:${port}`, mode: env.NODE_ENV })
})

let stopping = false
async function shutdown(signal: string) {
  if (stopping) return
  stopping = true
  log.info('shutting down', { signal })
  const force = setTimeout(() => {
    log.warn('shutdown took too long, exiting')
    process.exit(1)
  }, 10_000)
  force.unref()
  try {
    // Stop taking requests and sockets, hand the engine lease over, write what is left to
    // Postgres, then close the connections.
    await server.close()
    reconciler?.stop()
    demoKeeper?.stop()
    await alerts?.stop()
    settingsWatch.stop()
    await runtime.stop()
    await realtime.close()
    await prisma.$disconnect()
    await redis.quit()
    log.info('stopped')
    process.exit(0)
  } catch (error) {
    log.error('shutdown failed', errorFields(error))
    process.exit(1)
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'))
process.on('SIGINT', () => void shutdown('SIGINT'))
