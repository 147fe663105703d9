import { expect, test } from 'vitest'
import { createRedis, redisTarget } from './redis.ts'

const sentinels = [
  { host: '10.0.0.1', port: 26379 },
  { host: '10.0.0.2', port: 26379 },
]

test('a URL alone is the Redis to connect to', () => {
  expect(redisTarget({ REDIS_URL: 'redis://127.0.0.1:6379' })).toEqual({
    url: 'redis://127.0.0.1:6379',
  })
  expect(() => redisTarget({})).toThrow('REDIS_URL or REDIS_SENTINELS must be set')
})

test('with Sentinels, every connection and its duplicates ask them for the named primary', () => {
  const target = redisTarget({
    REDIS_SENTINELS: sentinels,
    REDIS_MASTER_NAME: 'penny',
    REDIS_URL: 'redis://app:s%40cret@ignored-host:6379/2',
  })
  const redis = createRedis(target, { lazyConnect: true, connectionName: 'main' })
  const copy = redis.duplicate({ connectionName: 'socket.io:sub' })
  try {
    for (const connection of [redis, copy]) {
      expect(connection.options).toMatchObject({
        sentinels,
        name: 'penny',
        username: 'app',
        password: 's@cret',
        db: 2,
        failoverDetector: false,
      })
    }
    expect(copy.options.connectionName).toBe('socket.io:sub')
  } finally {
    redis.disconnect()
    copy.disconnect()
  }
})
