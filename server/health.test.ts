import { expect, test } from 'vitest'
import { testEngine } from '../engine/test-support.ts'
import { publicReadiness, readinessProbe } from './health.ts'

// `/readyz` runs its checks (Redis, Postgres, the outbox's length) once per window, however many
// ask: real Redis and Postgres, with the database check counted.

test('a flood of readiness requests costs one round of checks per window', async () => {
  const { engine, prisma, redis } = testEngine()
  // The pool connected first, as a running server's is: on a busy machine the first query's
  // connection alone can outlast the probe's 2 s limit, and this test is about the window.
  await prisma.$queryRaw`SELECT 1`
  await redis.ping()
  let databaseChecks = 0
  const services = {
    engine,
    redis,
    pingDatabase: async () => {
      databaseChecks += 1
      await prisma.$queryRaw`SELECT 1`
    },
  }
  const probe = readinessProbe(services, 60_000)
  const reports = await Promise.all(Array.from({ length: 50 }, () => probe()))
  for (let i = 0; i < 20; i++) reports.push(await probe())
  expect(databaseChecks).toBe(1)
  for (const report of reports) {
    expect(report).toEqual({ ready: true, redis: 'ok', database: 'ok', outboxLag: 0 })
  }
  expect(publicReadiness(reports[0]!)).toEqual({ status: 'ready' })
  expect(publicReadiness({ ...reports[0]!, ready: false, database: 'down' })).toEqual({
    status: 'not ready',
  })

  // Once the window has passed, the next request checks again.
  const shortly = readinessProbe(services, 20)
  await shortly()
  const before = databaseChecks
  while (databaseChecks === before) await shortly()
  expect(databaseChecks).toBe(before + 1)
})
