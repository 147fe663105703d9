import { Redis, type RedisOptions } from 'ioredis'
import type { Logger } from './types.ts'

/**
 * Where Redis is: one server at a URL, or the primary that Sentinels name (REDIS_SENTINELS,
 * docs/operations.md#redis-sentinel). With Sentinels a connection asks them for the primary,
 * follows a failover by itself, and `duplicate()` keeps asking them.
 */
export type RedisTarget =
  | { url: string }
  | {
      sentinels: Array<{ host: string; port: number }>
      masterName: string
      /** Credentials and database of the primary (the user, password and path of a URL). */
      url?: string
    }

/** The target the environment names (app/utils/env.server.ts validated it). */
export function redisTarget(env: {
  REDIS_URL?: string
  REDIS_SENTINELS?: Array<{ host: string; port: number }>
  REDIS_MASTER_NAME?: string
}): RedisTarget {
  if (env.REDIS_SENTINELS && env.REDIS_MASTER_NAME)
    return { sentinels: env.REDIS_SENTINELS, masterName: env.REDIS_MASTER_NAME, url: env.REDIS_URL }
  if (!env.REDIS_URL) throw new Error('REDIS_URL or REDIS_SENTINELS must be set')
  return { url: env.REDIS_URL }
}

/** The user, password and database a redis:// URL names (its host is the Sentinels' to give). */
function credentials(url: string | undefined): RedisOptions {
  if (!url) return {}
  const parsed = new URL(url)
  const db = Number(parsed.pathname.slice(1) || 0)
  return {
    ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
    db,
    ...(parsed.protocol === 'rediss:' ? { tls: {}, enableTLSForSentinelMode: true } : {}),
  }
}

/** Every Redis connection of the app, its workers, scripts and tests is made here. */
export function createRedis(target: RedisTarget | string, options: RedisOptions = {}): Redis {
  if (typeof target === 'string') return new Redis(target, options)
  if ('sentinels' in target) {
    return new Redis({
      ...credentials(target.url),
      sentinels: target.sentinels,
      name: target.masterName,
      // A connection moves to the new primary when Redis closes it: the lost primary's socket
      // closes, and a server whose role changes drops its clients (Redis's Sentinel client
      // guidelines). ioredis's `failoverDetector` is left off: when its +switch-master
      // arrives while a connection is asking the Sentinels where to reconnect, that connection
      // ends for good ("Connection is closed." on every command after a failover,
      // https://github.com/redis/ioredis/issues/1683; docs/decisions/053-sentinel-connections.md).
      failoverDetector: false,
      ...options,
    })
  }
  return new Redis(target.url, options)
}

/** How often one connection reports that it still cannot reach Redis. */
const ERROR_REPORT_EVERY_MS = 60_000

/**
 * Reports `redis`'s errors to `log` as `name`: the first error of an outage, then one a minute
 * while it lasts. Without an 'error' listener ioredis prints each reconnection attempt's error
 * with its stack to the console ("[ioredis] Unhandled error event"); a connection made by
 * `duplicate()` does not inherit its original's listeners, so every connection gets this.
 */
export function reportErrors(redis: Redis, log: Pick<Logger, 'warn'>, name: string): Redis {
  let reportedAt = 0
  redis.on('error', (error: Error) => {
    if (Date.now() - reportedAt < ERROR_REPORT_EVERY_MS) return
    reportedAt = Date.now()
    log.warn('redis connection failed; reconnecting', { connection: name, error: error.message })
  })
  redis.on('ready', () => {
    reportedAt = 0
  })
  return redis
}

/** A connection of its own for blocking reads, pub/sub or WAIT, reporting its errors as `name`. */
export function duplicateRedis(
  redis: Redis,
  log: Pick<Logger, 'warn'>,
  name: string,
  options: Partial<RedisOptions> = {},
): Redis {
  return reportErrors(redis.duplicate({ connectionName: name, ...options }), log, name)
}

/** Creates a stream's consumer group (and the stream) unless it exists. */
export async function ensureStreamGroup(redis: Redis, stream: string, group: string) {
  try {
    await redis.xgroup('CREATE', stream, group, '0', 'MKSTREAM')
  } catch (error) {
    if (!String(error).includes('BUSYGROUP')) throw error
  }
}
