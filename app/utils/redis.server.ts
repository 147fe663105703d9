import type { Redis } from 'ioredis'
import {
  createRedis as connect,
  redisTarget,
  reportErrors,
  type RedisTarget,
} from '../../engine/index.ts'
import { log } from '~/utils/logger.server.ts'
import { getEnv } from '~/utils/env.server.ts'

// One Redis connection per process for commands (blocking reads and pub/sub get their own,
// made with `duplicate()` where they are needed). Kept on globalThis so the development server's
// module reloads don't open a new connection each time.

const globalForRedis = globalThis as typeof globalThis & { __redis?: Redis }

export function createRedis(target: RedisTarget | string, name = 'main'): Redis {
  const connectionName = `penny-auction:${name}`
  const redis = connect(target, {
    connectionName,
    maxRetriesPerRequest: 2,
    enableAutoPipelining: true,
    lazyConnect: false,
  })
  return reportErrors(redis, log, connectionName)
}

export function getRedis(): Redis {
  globalForRedis.__redis ??= createRedis(redisTarget(getEnv()))
  return globalForRedis.__redis
}
