import { EventEmitter } from 'node:events'
import type { Redis } from 'ioredis'
import type { PrismaClient } from '../prisma/generated/client.ts'
import { createKeys, type Keys } from './keys.ts'
import { Replication, type ReplicaOptions } from './replicas.ts'
import { loadScripts } from './lua-runner.ts'
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
 * What every part of the engine shares: its connections, keys, settings and events. The parts
 * build on it, one concern each: reads (engine-reads.ts), balances and users (engine-users.ts),
 * bids and prebids (engine-bids.ts), auto-bids (engine-autobids.ts), auctions and the sweep
 * (engine.ts, whose Engine is the whole).
 */
export class EngineCore extends EventEmitter<EngineEvents> {
  readonly keys: Keys
  readonly redis: Redis
  readonly prisma: PrismaClient
  readonly log: Logger
  protected readonly finishedTtlMs: number
  readonly timerMs: number
  /** Bids, prebids, credits, adjustments and auto-bid budgets: acknowledged once replicated. */
  readonly replication: Replication

  constructor(options: EngineOptions) {
    super()
    this.redis = options.redis
    this.prisma = options.prisma
    this.keys = createKeys(options.prefix)
    this.log = options.log ?? silentLogger
    this.finishedTtlMs = options.finishedTtlMs ?? 6 * 60 * 60 * 1000
    this.timerMs = options.timerMs ?? BID_TIMER_MS
    this.replication = new Replication(this.redis, options.replicas, this.log)
  }

  /** Closes the connection of its own that acknowledged writes use when they wait for replicas. */
  async close() {
    await this.replication.close()
  }

  /** Loads every script into Redis (later calls also recover from NOSCRIPT by themselves). */
  async loadScripts() {
    await loadScripts(this.redis)
  }

  /** The connection of the acknowledged writes (the main one unless they wait for replicas). */
  protected get acked() {
    return this.replication.redis
  }
}
