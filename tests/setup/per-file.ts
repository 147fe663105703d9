import { randomBytes } from 'node:crypto'
import { afterAll, inject } from 'vitest'
import { createDatabase, databaseUrl } from './databases.ts'

// Each test file gets its own database (a copy of the migrated template) and its own Redis
// key prefix, set in the environment before any application module reads it.
const runId = inject('runId')
const suffix = randomBytes(4).toString('hex')
const name = `pa_test_${runId}_${suffix}`
await createDatabase(inject('databaseBaseUrl'), name, inject('templateDatabase'))

process.env.NODE_ENV = 'test'
process.env.DATABASE_URL = databaseUrl(inject('databaseBaseUrl'), name)
process.env.REDIS_URL = inject('redisUrl')
process.env.REDIS_PREFIX = `t${runId}${suffix}`
process.env.SESSION_SECRET ??= 'test-secret-test-secret-test-secret-42'
process.env.LOG_LEVEL ??= 'silent'
// The tests' own push service (tests/support/push-service-fake.ts) listens on 127.0.0.1, which
// the server sends to only when named internal; the tests of that rule set their own.
process.env.PUSH_INTERNAL_HOSTS ??= '127.0.0.1'

afterAll(async () => {
  const { cleanupTestState } = await import('./cleanup.ts')
  await cleanupTestState()
})
