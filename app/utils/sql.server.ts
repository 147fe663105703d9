import pg from 'pg'
import { POOL_WAIT_MS } from './db.server.ts'

// Reads that every signed-in page makes (the user's row, their prebids) go to Postgres as plain
// prepared statements on a small pool of their own: through the ORM each costs ~0.6 ms of CPU
// on the event loop (its query compiler runs per query), as plain SQL ~0.15 ms. Writes and
// everything else stay with the ORM. Kept on globalThis, as the ORM's client is.

const globalForSql = globalThis as typeof globalThis & { __sqlPool?: pg.Pool }

function pool(): pg.Pool {
  if (!globalForSql.__sqlPool) {
    const url = process.env.DATABASE_URL
    if (!url) throw new Error('DATABASE_URL is not set; it must point at the Postgres database')
    const created = new pg.Pool({
      connectionString: url,
      max: 4,
      idleTimeoutMillis: 30_000,
      connectionTimeoutMillis: POOL_WAIT_MS,
    })
    // An idle connection that Postgres drops is replaced on the next read; not a crash.
    created.on('error', () => {})
    globalForSql.__sqlPool = created
  }
  return globalForSql.__sqlPool
}

/**
 * Rows of one read, as a named prepared statement (parsed and planned once per connection).
 * `name` must be unique to `text`.
 */
export async function readRows<Row>(name: string, text: string, values: unknown[]): Promise<Row[]> {
  const result = await pool().query<Row & pg.QueryResultRow>({ name, text, values })
  return result.rows
}
