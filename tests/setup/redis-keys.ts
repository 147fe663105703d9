import type { Redis } from 'ioredis'

/** Removes every key that contains `prefix` (a test run's or benchmark's own namespace). */
export async function removeKeys(redis: Redis, prefix: string) {
  let cursor = '0'
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `*${prefix}*`, 'COUNT', 500)
    cursor = next
    if (keys.length) await redis.unlink(...keys)
  } while (cursor !== '0')
}
