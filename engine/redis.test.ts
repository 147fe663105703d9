import { expect, test, vi } from 'vitest'
import { freePort, waitFor } from '../tests/setup/stack.ts'
import { createRedis, duplicateRedis, redisTarget, reportErrors } from './redis.ts'

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

test('a connection and its duplicate report an outage to the log once, not to the console at every try', async () => {
  const port = await freePort() // nothing listens there
  const warnings: Array<Record<string, unknown> | undefined> = []
  const log = { warn: (_msg: string, fields?: Record<string, unknown>) => warnings.push(fields) }
  const printed = vi.spyOn(console, 'error').mockImplementation(() => {})
  const options = { retryStrategy: () => 20, maxRetriesPerRequest: 0 }
  const redis = reportErrors(createRedis(`redis://127.0.0.1:${port}`, options), log, 'main')
  const copy = duplicateRedis(redis, log, 'copy')
  let attempts = 0
  copy.on('error', () => attempts++)
  try {
    // Several reconnection attempts fail; each connection says so once.
    await waitFor('five failed attempts', async () => attempts >= 5, 10_000, 20)
    expect(warnings.map((fields) => fields?.connection).sort()).toEqual(['copy', 'main'])
    expect(warnings[0]?.error).toMatch(/ECONNREFUSED/)
    expect(printed).not.toHaveBeenCalled()
  } finally {
    printed.mockRestore()
    redis.disconnect()
    copy.disconnect()
  }
})
