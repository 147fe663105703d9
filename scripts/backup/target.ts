// Where a restore may go: a database without a row and a Redis without a key of the install.
// A restore adds a backup's rows; it never merges them with others nor replaces them.
import type { Redis } from 'ioredis'
import type pg from 'pg'
import { quoteName } from './dump.ts'
import type { TableColumns } from './format.ts'

/** The target is not empty: nothing was changed. */
export class RestoreRefused extends Error {}

const NEW_VOLUME =
  'restore into a new volume (docker run --rm -i -v NEW_VOLUME:/app/.data -e EMBEDDED_SERVICES=1 …), or an empty database and Redis'

async function appliedMigrations(client: pg.Client): Promise<string[]> {
  const found = await client.query("SELECT to_regclass('public._prisma_migrations') AS name")
  if (!found.rows[0]?.name) return []
  const applied = await client.query<{ name: string }>(
    'SELECT migration_name AS name FROM _prisma_migrations WHERE rolled_back_at IS NULL',
  )
  return applied.rows.map((row) => row.name)
}

/**
 * Refuses a database that holds a row in any table, or migrations the backup's version did not
 * have (its newer ones would run before the rows), and a Redis holding keys under `base` (the
 * running install's live state would not match the restored one). Returns the migrations the
 * database has (a restore refused for a cut-off file leaves the backup's).
 */
export async function checkEmpty(
  client: pg.Client,
  redis: Redis,
  base: string,
  backupMigrations: string[],
): Promise<string[]> {
  const tables = await client.query<{ name: string }>(
    `SELECT c.relname::text AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND c.relname <> '_prisma_migrations'
     ORDER BY c.relname`,
  )
  const holding: string[] = []
  for (const { name } of tables.rows) {
    const rows = await client.query(`SELECT 1 FROM ${quoteName(name)} LIMIT 1`)
    if (rows.rowCount) holding.push(name)
  }
  if (holding.length)
    throw new RestoreRefused(
      `the database already holds data (rows in ${holding.join(', ')}): ${NEW_VOLUME}`,
    )
  const known = new Set(backupMigrations)
  const applied = await appliedMigrations(client)
  const past = applied.filter((name) => !known.has(name))
  if (past.length)
    throw new RestoreRefused(
      `the database was migrated past the backup (${past.join(', ')}): ${NEW_VOLUME}`,
    )
  let cursor = '0'
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${base}*`, 'COUNT', 1000)
    if (keys.length)
      throw new RestoreRefused(
        `Redis already holds the live state of an install (keys ${base}…): stop its instances and ${NEW_VOLUME}`,
      )
    cursor = next
  } while (cursor !== '0')
  return applied
}

/** Every column the backup holds is in the migrated database (the same migrations made both). */
export async function checkColumns(client: pg.Client, tables: TableColumns[]) {
  const present = await client.query<{ name: string; columns: string[] }>(
    `SELECT c.relname::text AS name, array_agg(a.attname::text) AS columns
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
     WHERE n.nspname = 'public' GROUP BY c.relname`,
  )
  const columnsOf = new Map(present.rows.map((row) => [row.name, new Set(row.columns)]))
  const missing = tables.flatMap(({ name, columns }) =>
    columns
      .filter((column) => !columnsOf.get(name)?.has(column))
      .map((column) => `${name}.${column}`),
  )
  if (missing.length)
    throw new Error(
      `the migrated database lacks what the backup holds (${missing.slice(0, 10).join(', ')}): were its migrations changed after they were applied?`,
    )
}
