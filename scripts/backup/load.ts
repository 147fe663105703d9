// What a restore does with a backup (docs/decisions/078-backup-inside-the-container.md): into an
// empty database and an empty Redis only; the backup's migrations, then every row in one
// transaction, then this version's newer migrations, then the saved outbox entries through the
// engine's own writer. Redis is left empty: the first start loads everything from Postgres.
import type { Readable } from 'node:stream'
import type { Redis } from 'ioredis'
import pg from 'pg'
import type { ImageStore } from '../../app/services/images/store.server.ts'
import {
  keysOf,
  writeBatch,
  type InTransaction,
  type Logger,
  type OutboxEntry,
} from '../../engine/index.ts'
import { quoteName } from './dump.ts'
import {
  APP,
  BadBackup,
  FORMAT,
  readRecords,
  type BackupRecord,
  type Counts,
  type SnapshotRecord,
} from './format.ts'
import { deployMigrations, knownMigrations, planMigrations } from './migrations.ts'
import { checkEmpty, checkColumns, RestoreRefused } from './target.ts'

export { RestoreRefused }

export type RestoreTarget = {
  databaseUrl: string
  redis: Redis
  /** The new install's REDIS_PREFIX. */
  prefix: string
  /** Where the product images go. */
  images: ImageStore
  /** Warnings of the outbox writer (an entry whose user or auction is gone). */
  log: Logger
}

export type RestoreResult = {
  header: { version: string; at: string }
  counts: Counts
  /** Migrations of this version applied after the rows (the backup's version lacked them). */
  migratedAfter: string[]
  /** Saved outbox entries Postgres held already, written now, and dropped by the writer. */
  outbox: { already: number; written: number; dropped: number }
}

/** Outbox entries per transaction, as the outbox worker writes them. */
const OUTBOX_BATCH = 500

function expectHeader(record: BackupRecord | undefined) {
  if (!record)
    throw new BadBackup(
      'no backup was read: give it on standard input (docker run -i … restore < FILE) or with --in FILE',
    )
  if (record.kind !== 'header' || record.app !== APP)
    throw new BadBackup('this is not a backup of the app (it does not begin with its header)')
  if (record.format > FORMAT)
    throw new BadBackup(
      `the backup's format (${record.format}) is newer than this version reads (${FORMAT}): restore it with the version that made it (${record.version}) or a newer one`,
    )
  return { version: record.version, at: record.at }
}

/** Restores the backup read from `input`; throws RestoreRefused or BadBackup before any change it refuses. */
export async function restoreBackup(
  target: RestoreTarget,
  input: Readable,
): Promise<RestoreResult> {
  const records = readRecords(input)
  const first = await records.next()
  const header = expectHeader(first.done ? undefined : first.value.record)
  const entries: OutboxEntry[] = []
  let snapshot: SnapshotRecord | undefined
  // Read by hand: leaving a for-await loop would close the records for the rest.
  while (!snapshot) {
    const next = await records.next()
    if (next.done) break
    const { record } = next.value
    if (record.kind === 'outbox') entries.push(...record.entries)
    else if (record.kind === 'snapshot') snapshot = record
    else throw new BadBackup(`the backup is damaged (a ${record.kind} record before its snapshot)`)
  }
  if (!snapshot) throw new BadBackup('the backup is cut off (it ends before its tables)')
  const plan = planMigrations(snapshot.migrations, knownMigrations())

  const client = new pg.Client({
    connectionString: target.databaseUrl,
    application_name: 'restore',
  })
  await client.connect()
  try {
    const base = keysOf(target.prefix).base
    const applied = new Set(await checkEmpty(client, target.redis, base, snapshot.migrations))
    if (plan.before.some((name) => !applied.has(name)))
      await deployMigrations(target.databaseUrl, plan.after.length ? plan.before : undefined)
    await checkColumns(client, snapshot.tables)
    const counts = await loadRows(client, snapshot, records, target.images, entries.length)
    try {
      if (plan.after.length) await deployMigrations(target.databaseUrl)
      const outbox = await writeOutbox(client, entries, target.log)
      return { header, counts, migratedAfter: plan.after, outbox }
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      throw new Error(
        `the rows are restored, but not what followed them (${reason}): find the cause, then restore again into a new volume or an empty database`,
        { cause: error },
      )
    }
  } finally {
    await client.end().catch(() => {})
  }
}

/**
 * Every row, sequence and image up to the backup's end, in one transaction: a backup cut off
 * leaves the database without a row of it. Foreign keys are not checked row by row where the
 * database lets this user switch them off (the embedded Postgres's user may): the rows are one
 * snapshot's, whose keys held.
 */
async function loadRows(
  client: pg.Client,
  snapshot: SnapshotRecord,
  records: AsyncGenerator<{ record: BackupRecord; rows?: string }>,
  images: ImageStore,
  outbox: number,
): Promise<Counts> {
  const columns = new Map(snapshot.tables.map((table) => [table.name, table.columns]))
  const rows = Object.fromEntries(snapshot.tables.map((table) => [table.name, 0]))
  const counts: Counts = { rows, outbox, sequences: 0, images: 0 }
  await client.query('BEGIN')
  try {
    await client.query('SAVEPOINT replica')
    await client.query('SET LOCAL session_replication_role = replica').catch(async () => {
      await client.query('ROLLBACK TO SAVEPOINT replica')
    })
    for await (const { record, rows } of records) {
      if (record.kind === 'rows') {
        const names = columns.get(record.table)
        if (!names || rows === undefined)
          throw new BadBackup(
            `the backup is damaged (rows of a table it does not list: ${record.table})`,
          )
        const list = names.map(quoteName).join(', ')
        const table = quoteName(record.table)
        const inserted = await client.query(
          `INSERT INTO ${table} (${list}) SELECT ${list} FROM jsonb_populate_recordset(NULL::${table}, $1::jsonb)`,
          [rows],
        )
        if (inserted.rowCount !== record.count)
          throw new BadBackup(
            `the backup is damaged (${record.table}: ${inserted.rowCount} rows of ${record.count})`,
          )
        counts.rows[record.table] = (counts.rows[record.table] ?? 0) + record.count
      } else if (record.kind === 'sequence') {
        await client.query('SELECT setval($1::regclass, $2::bigint, $3)', [
          quoteName(record.name),
          record.value,
          record.called,
        ])
        counts.sequences += 1
      } else if (record.kind === 'image') {
        await images.put(record.file, Buffer.from(record.data, 'base64'))
        counts.images += 1
      } else if (record.kind === 'end') {
        checkCounts(record, counts)
        await client.query('COMMIT')
        return counts
      } else
        throw new BadBackup(`the backup is damaged (a ${record.kind} record after its snapshot)`)
    }
    throw new BadBackup('the backup is cut off (it has no end record): nothing was restored')
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {})
    throw error
  }
}

function checkCounts(end: Counts, counts: Counts) {
  const differences: string[] = []
  const tables = new Set([...Object.keys(end.rows), ...Object.keys(counts.rows)])
  for (const table of tables) {
    if ((end.rows[table] ?? 0) !== (counts.rows[table] ?? 0))
      differences.push(`${table}: ${counts.rows[table] ?? 0} rows of ${end.rows[table] ?? 0}`)
  }
  for (const kind of ['outbox', 'sequences', 'images'] as const) {
    if (end[kind] !== counts[kind]) differences.push(`${kind}: ${counts[kind]} of ${end[kind]}`)
  }
  if (differences.length)
    throw new BadBackup(`the backup is damaged (${differences.join('; ')}): nothing was restored`)
}

/**
 * The saved outbox entries, written as the outbox worker writes them; those the snapshot held
 * already (their ids in ProcessedEvent) change nothing.
 */
async function writeOutbox(client: pg.Client, entries: OutboxEntry[], log: Logger) {
  const already = Number(
    (
      await client.query<{ count: string }>(
        'SELECT count(*) FROM "ProcessedEvent" WHERE id = ANY($1::text[])',
        [entries.map((entry) => entry.id)],
      )
    ).rows[0]!.count,
  )
  const inTransaction: InTransaction = async (work) => {
    await client.query('BEGIN')
    try {
      await work((text, params) => client.query(text, params))
      await client.query('COMMIT')
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {})
      throw error
    }
  }
  let dropped = 0
  for (let i = 0; i < entries.length; i += OUTBOX_BATCH) {
    dropped += (await writeBatch(inTransaction, entries.slice(i, i + OUTBOX_BATCH), log)).length
  }
  return { already, written: entries.length - already - dropped, dropped }
}
