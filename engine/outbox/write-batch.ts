import type { Logger } from '../types.ts'
import type { OutboxEntry } from './events.ts'
import { isDataError, type Sql } from './sql.ts'
import { writeEntries } from './write.ts'

// How a batch of outbox entries reaches Postgres, for the outbox worker (engine/outbox/worker.ts)
// and for a restore, which writes the entries a backup saved from the stream (scripts/backup/).

/** Runs `work` in one Postgres transaction, committed when `work` resolves. */
export type InTransaction = (work: (sql: Sql) => Promise<void>) => Promise<void>

/**
 * Writes the entries in one transaction; when that fails for one bad entry (its auction or user
 * was deleted meanwhile), writes them one by one and records each bad one as handled, so that it
 * is never tried again. Returns the ids of the entries dropped that way.
 */
export async function writeBatch(
  inTransaction: InTransaction,
  entries: OutboxEntry[],
  log: Logger,
): Promise<string[]> {
  try {
    await inTransaction((sql) => writeEntries(sql, entries, log))
    return []
  } catch (error) {
    if (!isDataError(error)) throw error
  }
  const dropped: string[] = []
  for (const entry of entries) {
    try {
      await inTransaction((sql) => writeEntries(sql, [entry], log))
    } catch (entryError) {
      if (!isDataError(entryError)) throw entryError
      log.warn('outbox entry dropped', {
        id: entry.id,
        type: entry.fields.type,
        error: String(entryError),
      })
      await inTransaction((sql) =>
        sql('INSERT INTO "ProcessedEvent" (id) VALUES ($1) ON CONFLICT DO NOTHING', [
          entry.id,
        ]).then(() => {}),
      )
      dropped.push(entry.id)
    }
  }
  return dropped
}
