import pg from 'pg'
import { expect, test } from 'vitest'
import type { Sql } from './outbox/sql.ts'
import { testEngine } from './test-support.ts'

// The outbox writer's connection broken in the middle of a transaction (Postgres restarted, a
// proxy cut, tests/faults/money-soak.faults.ts): the transaction fails and is tried again later;
// the process goes on.

test('a connection that breaks during an outbox transaction fails it without ending the process', async () => {
  const { outbox } = testEngine()
  const inTransaction = (
    outbox as unknown as { inTransaction(work: (sql: Sql) => Promise<void>): Promise<void> }
  ).inTransaction.bind(outbox)
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await admin.connect()
  try {
    const failed = await inTransaction(async (sql) => {
      const { rows } = await sql('SELECT pg_backend_pid() AS pid')
      const pid = (rows[0] as { pid: number }).pid
      await admin.query('SELECT pg_terminate_backend($1)', [pid])
      await sql('SELECT 1')
    }).then(
      () => null,
      (error: unknown) => error,
    )
    expect(failed).toBeInstanceOf(Error)
    // The next transaction gets a new connection.
    await inTransaction(async (sql) => {
      expect((await sql('SELECT 1 AS one')).rows).toEqual([{ one: 1 }])
    })
  } finally {
    await admin.end()
    await outbox.stop()
  }
})
