import type { Redis } from 'ioredis'
import pg from 'pg'
import type { Engine } from '../engine.ts'
import { duplicateRedis, ensureStreamGroup } from '../redis.ts'
import type { OutboxEntry } from './events.ts'
import { OutboxListeners, type OutboxListener } from './listeners.ts'
import type { Sql } from './sql.ts'
import { writeBatch } from './write-batch.ts'

// The durable path from Redis to Postgres. Every state change is appended to a stream by the
// same Lua script that makes it; this worker, one consumer in a group per instance, writes
// batches to Postgres in one transaction and acknowledges them only after commit. The stream
// entry id is unique in Postgres (ProcessedEvent), so a batch replayed after a crash is a no-op.
// It writes with plain SQL on its own small pool: a batch carries hundreds of rows as arrays, and
// the driver sends them for a third of the CPU the ORM's raw-query path costs. What each entry
// type becomes in Postgres is engine/outbox/handlers/ (one per type) and engine/outbox/write.ts.

const GROUP = 'postgres'
const CLAIM_IDLE_MS = 30_000
/** How often a worker looks for entries a dead instance left unacknowledged. */
const CLAIM_EVERY_MS = 5_000
/** At most one transaction per window while batches are not full (bids reach Postgres within it). */
const BATCH_WINDOW_MS = 100
const MAX_BACKOFF_MS = 30_000

type Fields = Record<string, string>

export type { OutboxEntry }

function toFields(flat: string[]): Fields {
  const fields: Fields = {}
  for (let i = 0; i < flat.length; i += 2) fields[flat[i]!] = flat[i + 1]!
  return fields
}

export class OutboxWorker {
  private running = false
  private reader: Redis | undefined
  private loop: Promise<void> | undefined
  private backoffMs = 0
  /** Entries written to Postgres by this worker (for metrics and tests). */
  applied = 0

  private pool: pg.Pool | undefined
  private readonly listeners: OutboxListeners

  constructor(
    private readonly engine: Engine,
    private readonly consumer: string,
    /** The Postgres the entries go to (the app's DATABASE_URL). */
    private readonly databaseUrl: string,
    private readonly batchSize = 500,
  ) {
    this.listeners = new OutboxListeners(engine.log)
  }

  /** Runs `work` in one transaction on a connection of this worker's pool. */
  private async inTransaction(work: (sql: Sql) => Promise<void>) {
    if (!this.pool) {
      this.pool = new pg.Pool({
        connectionString: this.databaseUrl,
        max: 2,
        allowExitOnIdle: true,
        application_name: `outbox:${this.consumer}`.slice(0, 63),
      })
      // An idle connection that breaks (Postgres restarted) is dropped by the pool.
      this.pool.on('error', () => {})
    }
    const client = await this.pool.connect()
    let broken: Error | undefined
    // A connection that breaks while it is out of the pool (Postgres gone, a proxy cut) says so
    // with an 'error' event the pool no longer listens to, and one nobody hears ends the
    // process: it is noted here, the transaction's statements fail, the connection is dropped.
    const onError = (error: Error) => {
      broken = error
    }
    client.on('error', onError)
    try {
      await client.query('BEGIN')
      await work((text, params) => client.query(text, params))
      await client.query('COMMIT')
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: unknown) => {
        broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError))
      })
      throw error
    } finally {
      client.removeListener('error', onError)
      client.release(broken)
    }
  }

  /**
   * Calls `listener` with every batch once Postgres holds it, before the batch is acknowledged.
   * A replayed batch is given again, so a listener must give the same result twice. A listener's
   * failure leaves the batch unacknowledged: it is written again (a no-op) and given again after
   * the back-off, up to LISTENER_TRIES times in a row (engine/outbox/listeners.ts).
   */
  onWritten(listener: OutboxListener) {
    this.listeners.add(listener)
  }

  async ensureGroup(redis: Redis = this.engine.redis) {
    await ensureStreamGroup(redis, this.engine.keys.outbox, GROUP)
  }

  start() {
    if (this.running) return
    this.running = true
    this.reader = duplicateRedis(this.engine.redis, this.engine.log, `outbox:${this.consumer}`)
    this.loop = this.run()
  }

  async stop() {
    this.running = false
    this.reader?.disconnect()
    await this.loop?.catch(() => {})
    this.reader = undefined
    const pool = this.pool
    this.pool = undefined
    await pool?.end().catch(() => {})
  }

  /** Entries not yet written to Postgres (pending in the group plus never delivered). */
  async lag(): Promise<number> {
    const redis = this.engine.redis
    try {
      const groups = (await redis.xinfo('GROUPS', this.engine.keys.outbox)) as unknown[][]
      for (const group of groups) {
        const info = toFields(group.map(String))
        if (info.name === GROUP) return Number(info.pending ?? 0) + Number(info.lag ?? 0)
      }
    } catch {
      // No stream yet.
    }
    return Number(await redis.xlen(this.engine.keys.outbox).catch(() => 0))
  }

  private async run() {
    const reader = this.reader!
    await this.ensureGroup(reader).catch(() => {})
    // What this consumer was given and never acknowledged is read again at the start and
    // after a failure (a successful batch is acknowledged whole); a dead instance's entries
    // are looked for every CLAIM_EVERY_MS.
    let ownPending = true
    let claimedAt = 0
    while (this.running) {
      try {
        const started = Date.now()
        let entries: OutboxEntry[] = []
        if (ownPending) entries = await this.read(reader, '0', 0)
        ownPending = entries.length > 0
        if (entries.length === 0 && started - claimedAt >= CLAIM_EVERY_MS) {
          claimedAt = started
          entries = await this.claim(reader)
        }
        if (entries.length === 0) entries = await this.read(reader, '>', 1000)
        if (entries.length === 0) continue
        await this.replicated(reader)
        await this.apply(entries)
        if (this.backoffMs) this.engine.log.info('outbox writing again', { after: this.backoffMs })
        this.backoffMs = 0
        // A batch short of full: let the next one gather for the rest of the window, so a busy
        // site writes a few large transactions a second rather than one per round trip.
        const rest = BATCH_WINDOW_MS - (Date.now() - started)
        if (entries.length < this.batchSize && rest > 0 && this.running)
          await new Promise((resolve) => setTimeout(resolve, rest))
      } catch (error) {
        if (!this.running) break
        ownPending = true
        this.backoffMs = Math.min(MAX_BACKOFF_MS, this.backoffMs ? this.backoffMs * 2 : 500)
        this.engine.log.warn('outbox write failed; retrying', {
          error: error instanceof Error ? error.message : String(error),
          retryInMs: this.backoffMs,
        })
        await new Promise((resolve) => setTimeout(resolve, this.backoffMs))
      }
    }
  }

  private async read(reader: Redis, from: string, blockMs: number): Promise<OutboxEntry[]> {
    const args: Array<string | number> = ['GROUP', GROUP, this.consumer, 'COUNT', this.batchSize]
    if (blockMs) args.push('BLOCK', blockMs)
    args.push('STREAMS', this.engine.keys.outbox, from)
    const reply = (await (reader.xreadgroup as (...a: Array<string | number>) => Promise<unknown>)(
      ...args,
    )) as Array<[string, Array<[string, string[] | null]>]> | null
    const rows = reply?.[0]?.[1] ?? []
    // A pending entry deleted meanwhile comes back with null fields: acknowledge and drop it.
    const gone = rows.filter(([, fields]) => !fields).map(([id]) => id)
    if (gone.length) await reader.xack(this.engine.keys.outbox, GROUP, ...gone)
    return rows
      .filter(([, fields]) => fields)
      .map(([id, fields]) => ({ id, fields: toFields(fields!) }))
  }

  private async claim(reader: Redis): Promise<OutboxEntry[]> {
    const reply = (await reader.xautoclaim(
      this.engine.keys.outbox,
      GROUP,
      this.consumer,
      CLAIM_IDLE_MS,
      '0',
      'COUNT',
      this.batchSize,
    )) as [string, Array<[string, string[] | null]>]
    return (reply[1] ?? [])
      .filter(([, fields]) => fields)
      .map(([id, fields]) => ({ id, fields: toFields(fields!) }))
  }

  /** Reads and writes until nothing is left (tests, shutdown). */
  async drain(): Promise<number> {
    const reader = this.engine.redis
    await this.ensureGroup(reader)
    let total = 0
    for (;;) {
      let entries = await this.read(reader, '0', 0)
      if (entries.length === 0) entries = await this.read(reader, '>', 0)
      if (entries.length === 0) return total
      await this.replicated(reader)
      await this.apply(entries)
      total += entries.length
    }
  }

  /**
   * With replicas to wait for, Postgres gets only entries they hold: a failover cannot take
   * back from Redis what Postgres already has (docs/decisions/037-acknowledged-after-a-replica.md).
   */
  private replicated(reader: Redis) {
    const { replication, keys } = this.engine
    return replication.caughtUp(reader, keys.outboxFence, 'outbox entries')
  }

  /** Writes a batch; if the batch fails for one bad entry, writes entries one by one. */
  async apply(entries: OutboxEntry[]) {
    await writeBatch((work) => this.inTransaction(work), entries, this.engine.log)
    await this.listeners.tell(entries)
    const { outbox, catalog } = this.engine.keys
    const ids = entries.map((entry) => entry.id)
    const transaction = this.engine.redis
      .multi()
      .xack(outbox, GROUP, ...ids)
      .xdel(outbox, ...ids)
    // An auction's row changed status: pages that keep what they read must read it again.
    if (entries.some((entry) => entry.fields.type === 'start' || entry.fields.type === 'finish'))
      transaction.incr(catalog)
    await transaction.exec()
    this.applied += entries.length
  }
}
