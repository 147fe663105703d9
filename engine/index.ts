import { hostname } from 'node:os'
import { AutoBidWorker } from './auto-bid-worker.ts'
import { BotWorker } from './bots.ts'
import { Engine, type EngineOptions } from './engine.ts'
import { Lease } from './lease.ts'
import { OrderWorker } from './orders.ts'
import { OutboxWorker } from './outbox/worker.ts'
import { Sweeper } from './sweeper.ts'
import { TimerBroadcast } from './timers.ts'

export { Engine, type EngineOptions, type SweepResult } from './engine.ts'
export { createKeys, keysOf, type Keys } from './keys.ts'
export {
  createRedis,
  duplicateRedis,
  ensureStreamGroup,
  redisTarget,
  reportErrors,
  type RedisTarget,
} from './redis.ts'
export { loginAttemptScript, rateLimitScript } from './login-attempt.ts'
export { auditBalances, rebuildBalances } from './balances-audit.ts'
export { auditHolds } from './holds-audit.ts'
export { auditLateBids } from './bids-audit.ts'
export {
  AUDIT_KINDS,
  canonical,
  chain,
  entryOf,
  genesis,
  nextHash,
  verify,
  type AuditEntry,
  type AuditKind,
  type ChainedEntry,
  type Verdict,
} from './audit-chain.ts'
export { OutboxWorker, type OutboxEntry } from './outbox/worker.ts'
export { writeBatch, type InTransaction } from './outbox/write-batch.ts'
export { LISTENER_TRIES } from './outbox/listeners.ts'
export { NotReplicated, isNotReplicated, type ReplicaOptions } from './replicas.ts'
export { refundHolds, waitForOutbox, type Refunds } from './refunds.ts'
export { Lease, LEASE_TTL_MS, followLease } from './lease.ts'
export { Sweeper } from './sweeper.ts'
export { BotWorker } from './bots.ts'
export { AutoBidWorker } from './auto-bid-worker.ts'
export { TimerBroadcast } from './timers.ts'
export {
  OrderWorker,
  createWinnerOrders,
  expireOrders,
  BUY_NOW_WINDOW_MS,
  PAYMENT_WINDOW_MS,
} from './orders.ts'
export {
  auditPackageOrders,
  creditOwedPackageOrders,
  creditPackageOrder,
  packageOrderReference,
  type PackageCredit,
  type PackageOrderProblem,
} from './package-orders.ts'
export * from './types.ts'
export {
  bishkekDay,
  bishkekDayStart,
  changeLimits,
  limitsAt,
  noLimits,
  LIMIT_DELAY_MS,
  type Limits,
  type LimitsChange,
} from './limits.ts'
export { limitColumns, limitFields, limitsOf } from './load.ts'

export type EngineRuntime = {
  engine: Engine
  outbox: OutboxWorker
  lease: Lease
  bots: BotWorker
  /** Loads scripts and auctions, starts the outbox worker and competes for the lease. */
  start: () => Promise<void>
  /** Stops the workers, hands the lease over and writes what is left to Postgres. */
  stop: () => Promise<void>
}

/**
 * The engine with its workers. Every instance writes the outbox (one consumer each); only the
 * lease holder runs the sweeper, the bots, the auto-bidder and the timer broadcast.
 */
export function createEngineRuntime(
  options: EngineOptions & {
    /** The Postgres the outbox writes to (the same one `prisma` reads). */
    databaseUrl: string
    workers?: boolean
  },
): EngineRuntime {
  const engine = new Engine(options)
  const consumer = `${hostname()}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`
  const outbox = new OutboxWorker(engine, consumer, options.databaseUrl)
  const sweeper = new Sweeper(engine)
  const bots = new BotWorker(engine)
  const autoBids = new AutoBidWorker(engine)
  const timers = new TimerBroadcast(engine)
  const orders = new OrderWorker(engine)
  engine.on('finished', () => orders.soon())
  const lease = new Lease(engine, (leader) => {
    engine.emit('leader', { leader })
    if (leader) {
      sweeper.start()
      bots.start()
      autoBids.start()
      timers.start()
      orders.start()
    } else {
      void sweeper.stop()
      bots.stop()
      autoBids.stop()
      timers.stop()
      orders.stop()
    }
  })
  const workers = options.workers ?? true
  return {
    engine,
    outbox,
    lease,
    bots,
    async start() {
      await engine.loadScripts()
      await outbox.ensureGroup()
      const loaded = await engine.loadAllAuctions()
      engine.log.info('engine ready', { auctions: loaded, workers })
      if (!workers) return
      outbox.start()
      lease.start()
    },
    async stop() {
      await lease.stop()
      await sweeper.stop()
      bots.stop()
      autoBids.stop()
      timers.stop()
      orders.stop()
      await outbox.stop()
      await outbox.drain().catch((error: unknown) => {
        engine.log.warn('outbox not drained at shutdown; it drains on the next start', {
          error: String(error),
        })
      })
      await engine.close()
    },
  }
}
