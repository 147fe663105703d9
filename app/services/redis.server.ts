import { Redis } from 'ioredis'

// One Redis connection per process for commands (blocking reads and pub/sub get their own,
// made with `duplicate()` where they are needed). Kept on globalThis so the development server's
// module reloads don't open a new connection each time.

const globalForRedis = globalThis as typeof globalThis & { __redis?: Redis }

export function createRedis(url: string, name = 'main'): Redis {
  return new Redis(url, {
    connectionName: `penny-auction:${name}`,
    maxRetriesPerRequest: 2,
    enableAutoPipelining: true,
    lazyConnect: false,
  })
}

export function getRedis(): Redis {
  if (!globalForRedis.__redis) {
    const url = process.env.REDIS_URL
    if (!url) throw new Error('REDIS_URL is not set')
    globalForRedis.__redis = createRedis(url)
  }
  return globalForRedis.__redis
}
