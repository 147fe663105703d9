// The backup file (docs/decisions/078-backup-inside-the-container.md): one gzip stream of
// newline-delimited JSON records, in this order:
//
//   header     the format, the app and its version, when the backup began
//   outbox*    entries of the outbox stream, read before the Postgres snapshot
//   snapshot   the applied migrations and every table's columns, in the snapshot
//   rows*      a table's rows, 1,000 at most; the next line is the rows themselves, a JSON array
//              of `to_jsonb` objects given to Postgres as they are (a number never passes
//              through JavaScript: a BigInt column keeps every digit)
//   sequence*  a sequence's value
//   image*     a product image's file, base64
//   end        how many of each came before: a file without it was cut off
import { once } from 'node:events'
import type { Readable, Writable } from 'node:stream'
import { StringDecoder } from 'node:string_decoder'
import { createGunzip, createGzip } from 'node:zlib'
import type { OutboxEntry } from '../../engine/index.ts'

/** Raised when the format changes in a way an older restore cannot read. */
export const FORMAT = 1
export const APP = 'penny-auction'

export type Header = { kind: 'header'; format: number; app: string; version: string; at: string }
export type OutboxRecord = { kind: 'outbox'; entries: OutboxEntry[] }
export type TableColumns = { name: string; columns: string[] }
export type SnapshotRecord = { kind: 'snapshot'; migrations: string[]; tables: TableColumns[] }
export type RowsRecord = { kind: 'rows'; table: string; count: number }
export type SequenceRecord = { kind: 'sequence'; name: string; value: string; called: boolean }
export type ImageRecord = { kind: 'image'; file: string; data: string }
export type Counts = {
  rows: Record<string, number>
  outbox: number
  sequences: number
  images: number
}
export type EndRecord = { kind: 'end' } & Counts

export type BackupRecord =
  Header | OutboxRecord | SnapshotRecord | RowsRecord | SequenceRecord | ImageRecord | EndRecord

/** What a backup holds, in a line. */
export function describeCounts(counts: Counts) {
  const rows = Object.values(counts.rows).reduce((sum, count) => sum + count, 0)
  const tables = Object.keys(counts.rows).length
  const of = (table: string) => counts.rows[table] ?? 0
  return (
    `${rows} rows in ${tables} tables (users ${of('User')}, auctions ${of('Auction')}, ` +
    `bids ${of('Bid')}, ledger rows ${of('BalanceLedger')}, payments ${of('Payment')}), ` +
    `${counts.outbox} outbox entries, ${counts.sequences} sequences, ${counts.images} image files`
  )
}

/** A backup that cannot be restored as it is (cut off, not a backup, made by a newer version). */
export class BadBackup extends Error {}

/** Writes records, gzip'd, to `out`; `close` ends the stream (not `out` when it is stdout). */
export class BackupWriter {
  private readonly gzip = createGzip()
  private readonly finished: Promise<void>
  /** Rejects when the output fails (a full disk, a reader that went away). */
  private readonly failed: Promise<never>

  constructor(out: Writable, endOut: boolean) {
    this.gzip.pipe(out, { end: endOut })
    const failed = new Promise<never>((_, reject) => {
      out.once('error', reject)
      this.gzip.once('error', reject)
    })
    failed.catch(() => {})
    this.failed = failed
    const flushed = endOut
      ? once(out, 'finish').then(() => {})
      : once(this.gzip, 'end').then(
          () => new Promise<void>((resolve) => out.write('', () => resolve())),
        )
    this.finished = Promise.race([flushed, failed])
    // Awaited by close(); a failure before it is the pending write's to report.
    this.finished.catch(() => {})
  }

  /** One record; `rows`, a JSON array's text, goes on the line after a `rows` record. */
  async write(record: BackupRecord, rows?: string) {
    let text = `${JSON.stringify(record)}\n`
    if (rows !== undefined) text += `${rows}\n`
    if (!this.gzip.write(text)) await Promise.race([once(this.gzip, 'drain'), this.failed])
  }

  async close() {
    this.gzip.end()
    await this.finished
  }
}

/**
 * The lines of a gzip'd backup. A stream cut off inside the gzip data, or not gzip at all, is a
 * BadBackup; one cut off between records is found by its missing `end` (the reader's caller).
 */
export async function* readLines(input: Readable): AsyncGenerator<string> {
  const gunzip = createGunzip()
  input.once('error', (error) => gunzip.destroy(error))
  input.pipe(gunzip)
  const decoder = new StringDecoder('utf8')
  let pending = ''
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      // Only the new text is searched: a line of rows can be megabytes long.
      let from = pending.length
      pending += decoder.write(chunk)
      let at: number
      while ((at = pending.indexOf('\n', from)) >= 0) {
        yield pending.slice(0, at)
        pending = pending.slice(at + 1)
        from = 0
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code
    if (code === 'Z_BUF_ERROR')
      throw new BadBackup('the backup is cut off (its gzip data ends early)')
    if (code === 'Z_DATA_ERROR') throw new BadBackup('this is not a backup file (not gzip data)')
    throw error
  }
  pending += decoder.end()
  if (pending) yield pending
}

/** Reads records (with the rows line of each `rows` record) from the lines of a backup. */
export async function* readRecords(
  input: Readable,
): AsyncGenerator<{ record: BackupRecord; rows?: string }> {
  const lines = readLines(input)
  for (;;) {
    const next = await lines.next()
    if (next.done) return
    let record: BackupRecord
    try {
      record = JSON.parse(next.value) as BackupRecord
    } catch {
      throw new BadBackup('this is not a backup file (a line is not JSON)')
    }
    if (record.kind !== 'rows') {
      yield { record }
      continue
    }
    const rows = await lines.next()
    if (rows.done) throw new BadBackup('the backup is cut off (in the rows of a table)')
    yield { record, rows: rows.value }
  }
}
