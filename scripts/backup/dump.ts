// What a backup reads (docs/decisions/078-backup-inside-the-container.md): the outbox stream
// first, then every table in one snapshot of Postgres, then the product images. Every entry the
// stream held at the start is either written in the snapshot already (its id in ProcessedEvent)
// or saved here, and every row it refers to was in Postgres before it was made.
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import type { Redis } from 'ioredis'
import type pg from 'pg'
import { isImageFile } from '../../app/services/images/store.server.ts'
import { keysOf, type OutboxEntry } from '../../engine/index.ts'
import { APP, FORMAT, type BackupWriter, type Counts, type TableColumns } from './format.ts'

/** Rows per `rows` record, and outbox entries per `outbox` record. */
export const PAGE = 1000

export type BackupSource = {
  /** Connected to the install's database. */
  client: pg.Client
  redis: Redis
  /** The install's REDIS_PREFIX. */
  prefix: string
  /** The folder of the product images; null when they are kept in a bucket (IMAGE_STORE=s3). */
  imagesDir: string | null
  /** The app's version (package.json). */
  version: string
}

export const quoteName = (name: string) => `"${name.replace(/"/g, '""')}"`

/** Writes the whole backup; returns how many of each it holds. */
export async function writeBackup(source: BackupSource, writer: BackupWriter): Promise<Counts> {
  const at = new Date().toISOString()
  await writer.write({ kind: 'header', format: FORMAT, app: APP, version: source.version, at })
  const outbox = await saveOutbox(source.redis, keysOf(source.prefix).outbox, writer)
  const { rows, sequences } = await saveSnapshot(source.client, writer)
  const images = source.imagesDir ? await saveImages(source.imagesDir, writer) : 0
  const counts = { rows, outbox, sequences, images }
  await writer.write({ kind: 'end', ...counts })
  return counts
}

function toEntry([id, flat]: [string, string[]]): OutboxEntry {
  const fields: Record<string, string> = {}
  for (let i = 0; i < flat.length; i += 2) fields[flat[i]!] = flat[i + 1]!
  return { id, fields }
}

/** Every entry of the stream, written or not yet (both kinds may be lost with Redis). */
async function saveOutbox(redis: Redis, key: string, writer: BackupWriter): Promise<number> {
  let from = '-'
  let saved = 0
  for (;;) {
    const page = await redis.xrange(key, from, '+', 'COUNT', PAGE)
    if (page.length === 0) return saved
    await writer.write({ kind: 'outbox', entries: page.map(toEntry) })
    saved += page.length
    from = `(${page.at(-1)![0]}`
  }
}

/** The tables of the public schema with their columns, parents before the tables referring to them. */
async function listTables(client: pg.Client): Promise<TableColumns[]> {
  const tables = await client.query<{ oid: number; name: string }>(
    `SELECT c.oid::int AS oid, c.relname::text AS name FROM pg_class c
     JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition
       AND c.relname <> '_prisma_migrations'
     ORDER BY c.relname`,
  )
  const oids = tables.rows.map((table) => table.oid)
  const columns = await client.query<{ oid: number; name: string }>(
    `SELECT attrelid::int AS oid, attname::text AS name FROM pg_attribute
     WHERE attrelid = ANY($1::oid[]) AND attnum > 0 AND NOT attisdropped AND attgenerated = ''
     ORDER BY attrelid, attnum`,
    [oids],
  )
  const references = await client.query<{ child: number; parent: number }>(
    `SELECT conrelid::int AS child, confrelid::int AS parent FROM pg_constraint
     WHERE contype = 'f' AND conrelid = ANY($1::oid[]) AND confrelid = ANY($1::oid[])`,
    [oids],
  )
  const parents = new Map<number, number[]>()
  for (const { child, parent } of references.rows)
    parents.set(child, [...(parents.get(child) ?? []), parent])
  // Parents first, so that a restore that may not switch foreign keys off still loads in order.
  const ordered: number[] = []
  const visit = (oid: number, seen: Set<number>) => {
    if (ordered.includes(oid) || seen.has(oid)) return
    seen.add(oid)
    for (const parent of parents.get(oid) ?? []) visit(parent, seen)
    ordered.push(oid)
  }
  for (const oid of oids) visit(oid, new Set())
  const nameOf = new Map(tables.rows.map((table) => [table.oid, table.name]))
  return ordered.map((oid) => ({
    name: nameOf.get(oid)!,
    columns: columns.rows.filter((column) => column.oid === oid).map((column) => column.name),
  }))
}

/** Every table and sequence in one snapshot: what one moment of Postgres held. */
async function saveSnapshot(client: pg.Client, writer: BackupWriter) {
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
  try {
    await client.query("SET LOCAL TIME ZONE 'UTC'")
    const migrations = await client.query<{ name: string }>(
      `SELECT migration_name AS name FROM _prisma_migrations
       WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name`,
    )
    const tables = await listTables(client)
    await writer.write({
      kind: 'snapshot',
      migrations: migrations.rows.map((row) => row.name),
      tables,
    })
    const rows: Record<string, number> = {}
    for (const { name } of tables) rows[name] = await saveTable(client, name, writer)
    const sequences = await saveSequences(client, writer)
    await client.query('COMMIT')
    return { rows, sequences }
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {})
    throw error
  }
}

/** A table read through a cursor, PAGE rows at a time: a large one is never in memory whole. */
async function saveTable(client: pg.Client, table: string, writer: BackupWriter) {
  await client.query(
    `DECLARE backup_rows NO SCROLL CURSOR FOR SELECT to_jsonb(t)::text AS row FROM ${quoteName(table)} t`,
  )
  let saved = 0
  for (;;) {
    const page = await client.query<{ row: string }>(`FETCH ${PAGE} FROM backup_rows`)
    if (page.rows.length === 0) break
    await writer.write(
      { kind: 'rows', table, count: page.rows.length },
      `[${page.rows.map((row) => row.row).join(',')}]`,
    )
    saved += page.rows.length
  }
  await client.query('CLOSE backup_rows')
  return saved
}

/** Each sequence's value (the lot numbers' has no column to take it from). */
async function saveSequences(client: pg.Client, writer: BackupWriter) {
  const sequences = await client.query<{ name: string }>(
    `SELECT c.relname::text AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind = 'S' ORDER BY c.relname`,
  )
  for (const { name } of sequences.rows) {
    const [state] = (
      await client.query<{ value: string; called: boolean }>(
        `SELECT last_value::text AS value, is_called AS called FROM ${quoteName(name)}`,
      )
    ).rows
    await writer.write({ kind: 'sequence', name, value: state!.value, called: state!.called })
  }
  return sequences.rows.length
}

/** The image files (`key/width.ext`), read after the snapshot: every image it names is there. */
async function saveImages(dir: string, writer: BackupWriter) {
  const keys = await readdir(dir, { withFileTypes: true }).catch((error: unknown) => {
    if ((error as { code?: string }).code === 'ENOENT') return []
    throw error
  })
  let saved = 0
  for (const key of keys
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()) {
    for (const name of (await readdir(path.join(dir, key))).sort()) {
      const file = `${key}/${name}`
      // Files being written carry a temporary name (store.server.ts): not an image yet.
      if (!isImageFile(file)) continue
      const data = await readFile(path.join(dir, file))
      await writer.write({ kind: 'image', file, data: data.toString('base64') })
      saved += 1
    }
  }
  return saved
}
