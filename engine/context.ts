import type { EventEmitter } from 'node:events'
import type { Redis } from 'ioredis'
import type { PrismaClient } from '../prisma/generated/client.ts'
import { createKeys, type Keys } from './keys.ts'
import { Replication, type ReplicaOptions } from './replicas.ts'
import { BID_TIMER_MS, silentLogger, type EngineEvents, type Logger } from './types.ts'

export type EngineOptions = {
  redis: Redis
  prisma: PrismaClient
  /** Key prefix; every key is under the hash tag `{prefix}`. */
  prefix: string
  log?: Logger
  /** How long finished auctions stay in Redis for late readers. */
  finishedTtlMs?: number
  /** The bid timer; docs/rules.md#bidding fixes it at 10 s, tests shorten it. */
  timerMs?: number
  /** Replicas that must hold an acknowledged write (Redis WAIT); none by default. */
  replicas?: ReplicaOptions
}

/**
 * What every concern of the engine shares: its connections, keys, settings and events. Each
 * concern is a module of functions taking it first: reads (engine/reads.ts), users
 * (engine/users.ts), balances (engine/balances.ts), bids and prebids (engine/bids.ts), auto-bids
 * (engine/auto-bids.ts), auctions and the sweep (engine/auctions.ts); `Engine`
 * (engine/engine.ts) makes it and names those functions as its methods.
 */
export type EngineContext = {
  readonly redis: Redis
  readonly prisma: PrismaClient
  readonly keys: Keys
  readonly log: Logger
  readonly timerMs: number
  readonly finishedTtlMs: number
  /** Bids, prebids, credits, adjustments and auto-bid budgets: acknowledged once replicated. */
  readonly replication: Replication
  /** The connection of the acknowledged writes (the main one unless they wait for replicas). */
  readonly acked: Redis
  /** Where the engine's events go (the Engine itself). */
  readonly events: EventEmitter<EngineEvents>
}

export function createEngineContext(
  options: EngineOptions,
  events: EventEmitter<EngineEvents>,
): EngineContext {
  const log = options.log ?? silentLogger
  const replication = new Replication(options.redis, options.replicas, log)
  return {
    redis: options.redis,
    prisma: options.prisma,
    keys: createKeys(options.prefix),
    log,
    timerMs: options.timerMs ?? BID_TIMER_MS,
    finishedTtlMs: options.finishedTtlMs ?? 6 * 60 * 60 * 1000,
    replication,
    acked: replication.redis,
    events,
  }
}
