import type { Redis } from 'ioredis'
import pg from 'pg'
import type { LedgerReason } from '../prisma/generated/enums.ts'
import type { Engine } from './engine.ts'
import { forgettingUserRows } from './user-rows.ts'

// The durable path from Redis to Postgres. Every state change is appended to a stream by the
// same Lua script that makes it; this worker, one consumer in a group per instance, writes
// batches to Postgres in one transaction and acknowledges them only after commit. The stream
// entry id is unique in Postgres (ProcessedEvent), so a batch replayed after a crash is a no-op.
// It writes with plain SQL on its own small pool: a batch carries hundreds of rows as arrays, and
// the driver sends them for a third of the CPU the ORM's raw-query path costs.

const GROUP = 'postgres'
const CLAIM_IDLE_MS = 30_000
/** How often a worker looks for entries a dead instance left unacknowledged. */
const CLAIM_EVERY_MS = 5_000
/** At most one transaction per window while batches are not full (bids reach Postgres within it). */
const BATCH_WINDOW_MS = 100
const MAX_BACKOFF_MS = 30_000

type Fields = Record<string, string>
export type OutboxEntry = { id: string; fields: Fields }

type Conversion = { user: string; name: string; price: number }

function toFields(flat: string[]): Fields {
  const fields: Fields = {}
  for (let i = 0; i < flat.length; i += 2) fields[flat[i]!] = flat[i + 1]!
  return fields
}

type AuctionChange = {
  priceMax: number
  addBids: number
  addPrebids: number
  started: boolean
  finish?: {
    winner: string
    bot: boolean
    name: string
    price: number
    endedAt: number
    bids: number
  }
}

type UserChange = { addBids: number; addSpent: number; addWins: number }

/** One statement inside the batch's transaction. */
type Sql = <Row extends pg.QueryResultRow = pg.QueryResultRow>(
  text: string,
  params?: unknown[],
) => Promise<pg.QueryResult<Row>>

export class OutboxWorker {
  private running = false
  private reader: Redis | undefined
  private loop: Promise<void> | undefined
  private backoffMs = 0
  /** Entries written to Postgres by this worker (for metrics and tests). */
  applied = 0

  private pool: pg.Pool | undefined

  constructor(
    private readonly engine: Engine,
    private readonly consumer: string,
    /** The Postgres the entries go to (the app's DATABASE_URL). */
    private readonly databaseUrl: string,
    private readonly batchSize = 500,
  ) {}

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
      client.release(broken)
    }
  }

  async ensureGroup(redis: Redis = this.engine.redis) {
    try {
      await redis.xgroup('CREATE', this.engine.keys.outbox, GROUP, '0', 'MKSTREAM')
    } catch (error) {
      if (!String(error).includes('BUSYGROUP')) throw error
    }
  }

  start() {
    if (this.running) return
    this.running = true
    this.reader = this.engine.redis.duplicate({ connectionName: `outbox:${this.consumer}` })
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
      await this.apply(entries)
      total += entries.length
    }
  }

  /** Writes a batch; if the batch fails for one bad entry, writes entries one by one. */
  async apply(entries: OutboxEntry[]) {
    // Users whose row as pages show it changed (a win): their kept copies go (user-rows.ts).
    const changedRows: string[] = []
    try {
      await this.inTransaction(async (sql) => {
        changedRows.push(...(await this.write(sql, entries)))
      })
    } catch (error) {
      if (!isDataError(error)) throw error
      for (const entry of entries) {
        try {
          await this.inTransaction(async (sql) => {
            changedRows.push(...(await this.write(sql, [entry])))
          })
        } catch (entryError) {
          if (!isDataError(entryError)) throw entryError
          // Its auction or user is gone (deleted meanwhile): record it as handled, keep going.
          this.engine.log.warn('outbox entry dropped', {
            id: entry.id,
            type: entry.fields.type,
            error: String(entryError),
          })
          await this.inTransaction((sql) =>
            sql('INSERT INTO "ProcessedEvent" (id) VALUES ($1) ON CONFLICT DO NOTHING', [
              entry.id,
            ]).then(() => {}),
          )
        }
      }
    }
    const { outbox, catalog } = this.engine.keys
    const ids = entries.map((entry) => entry.id)
    const transaction = this.engine.redis
      .multi()
      .xack(outbox, GROUP, ...ids)
      .xdel(outbox, ...ids)
    // An auction's row changed status: pages that keep what they read must read it again.
    if (entries.some((entry) => entry.fields.type === 'start' || entry.fields.type === 'finish'))
      transaction.incr(catalog)
    forgettingUserRows(transaction, this.engine.keys, changedRows)
    await transaction.exec()
    this.applied += entries.length
  }

  /** Writes entries; returns the users whose row as pages show it changed (a win). */
  private async write(sql: Sql, entries: OutboxEntry[]): Promise<string[]> {
    const fresh = new Set(
      (
        await sql<{ id: string }>(
          'INSERT INTO "ProcessedEvent" (id) SELECT unnest($1::text[]) ON CONFLICT DO NOTHING RETURNING id',
          [entries.map((entry) => entry.id)],
        )
      ).rows.map((row) => row.id),
    )
    const auctions = new Map<string, AuctionChange>()
    const users = new Map<string, UserChange>()
    const bots = new Map<string, number>()
    const bids: BidRow[] = []
    const prebids: Array<{
      id: string
      eventId: string
      auctionId: string
      userId: string
      createdAt: Date
    }> = []
    const ledger: LedgerRow[] = []
    const converted: Array<{ auctionId: string; users: string[]; at: Date }> = []
    const autoBids: Array<{ auctionId: string; userId: string; amount: number }> = []
    const autoPlaced = new Map<string, number>()

    const auction = (id: string) => {
      let change = auctions.get(id)
      if (!change)
        auctions.set(id, (change = { priceMax: 0, addBids: 0, addPrebids: 0, started: false }))
      return change
    }
    const user = (id: string) => {
      let change = users.get(id)
      if (!change) users.set(id, (change = { addBids: 0, addSpent: 0, addWins: 0 }))
      return change
    }

    for (const { id, fields: f } of entries) {
      if (!fresh.has(id)) continue
      const at = new Date(Number(f.at))
      switch (f.type) {
        case 'bid': {
          const price = Number(f.price)
          const a = auction(f.auction!)
          a.priceMax = Math.max(a.priceMax, price)
          a.addBids += 1
          const isBot = f.bot === '1'
          const botId = isBot ? f.bidder!.slice('bot:'.length) : null
          bids.push({
            id,
            eventId: id,
            auctionId: f.auction!,
            userId: isBot ? null : f.bidder!,
            botId,
            isBot,
            isAuto: f.auto === '1',
            botName: isBot ? f.name! : null,
            isPrebid: false,
            amount: price,
            createdAt: at,
          })
          if (isBot) {
            const key = `${botId}|${f.auction}`
            bots.set(key, (bots.get(key) ?? 0) + 1)
          } else {
            const u = user(f.bidder!)
            u.addBids += 1
            if (f.auto === '1') {
              // Paid from the auto-bid reserve, whose ledger row was written when reserved.
              u.addSpent += 1
              const key = `${f.auction}|${f.bidder}`
              autoPlaced.set(key, (autoPlaced.get(key) ?? 0) + 1)
            }
            if (f.debit === '1') {
              u.addSpent += 1
              ledger.push({
                userId: f.bidder!,
                amount: -1,
                balanceAfter: Number(f.balance),
                reason: 'bid',
                reference: `bid:${id}`,
                auctionId: f.auction!,
                createdAt: at,
              })
            }
          }
          break
        }
        case 'prebid': {
          auction(f.auction!).addPrebids += 1
          prebids.push({ id, eventId: id, auctionId: f.auction!, userId: f.bidder!, createdAt: at })
          const u = user(f.bidder!)
          u.addBids += 1
          u.addSpent += 1
          ledger.push({
            userId: f.bidder!,
            amount: -1,
            balanceAfter: Number(f.balance),
            reason: 'prebid',
            reference: `prebid:${id}`,
            auctionId: f.auction!,
            createdAt: at,
          })
          break
        }
        case 'start': {
          const a = auction(f.auction!)
          a.started = true
          a.priceMax = Math.max(a.priceMax, Number(f.price))
          const list = JSON.parse(f.conversions ?? '[]') as Conversion[] | Record<string, never>
          const conversions = Array.isArray(list) ? list : []
          a.addBids += conversions.length
          conversions.forEach((c, index) => {
            bids.push({
              id: `${id}-${index + 1}`,
              eventId: `${id}-${index + 1}`,
              auctionId: f.auction!,
              userId: c.user,
              botId: null,
              isBot: false,
              isAuto: false,
              botName: null,
              isPrebid: true,
              amount: c.price,
              createdAt: at,
            })
          })
          if (conversions.length) {
            converted.push({ auctionId: f.auction!, users: conversions.map((c) => c.user), at })
          }
          break
        }
        case 'finish': {
          const a = auction(f.auction!)
          const bot = f.bot === '1'
          a.finish = {
            winner: f.winner ?? '',
            bot,
            name: f.name ?? '',
            price: Number(f.price),
            endedAt: Number(f.endedAt),
            bids: Number(f.bids),
          }
          if (f.winner && !bot) user(f.winner).addWins += 1
          break
        }
        case 'balance': {
          user(f.user!)
          ledger.push({
            userId: f.user!,
            amount: Number(f.amount),
            balanceAfter: Number(f.balance),
            reason: f.reason as 'topup',
            reference: f.reference!,
            auctionId: f.auction || null,
            createdAt: at,
          })
          break
        }
        case 'autobid': {
          // An auto-bid reserve (amount < 0) or return (amount >= 0) of the user's balance.
          const amount = Number(f.amount)
          const reserve = f.kind === 'reserve'
          user(f.user!)
          if (amount !== 0) {
            ledger.push({
              userId: f.user!,
              amount,
              balanceAfter: Number(f.balance),
              reason: reserve ? 'autobid_reserve' : 'autobid_return',
              reference: `autobid:${id}`,
              auctionId: f.auction!,
              createdAt: at,
            })
          }
          autoBids.push({ auctionId: f.auction!, userId: f.user!, amount })
          break
        }
        default:
          this.engine.log.warn('outbox entry of unknown type skipped', { id, type: f.type })
      }
    }

    // An account deleted while its entries waited here (docs/decisions/012-admin-deletes.md):
    // its bids, ledger rows and wins stay without a name, its prebids and auto-bids went with
    // it, and nothing about it may stop the rest of the batch.
    const named = new Set<string>(users.keys())
    for (const bid of bids) if (bid.userId) named.add(bid.userId)
    for (const change of auctions.values()) {
      if (change.finish?.winner && !change.finish.bot) named.add(change.finish.winner)
    }
    if (named.size) {
      const present = new Set(
        (
          await sql<{ id: string }>('SELECT id FROM "User" WHERE id = ANY($1::text[])', [
            [...named],
          ])
        ).rows.map((row) => row.id),
      )
      if (present.size < named.size) {
        const gone = (userId: string | null) => userId !== null && !present.has(userId)
        for (const bid of bids) if (gone(bid.userId)) bid.userId = null
        for (const row of ledger) if (gone(row.userId)) row.userId = null
        for (const userId of named) if (gone(userId)) users.delete(userId)
        for (const change of auctions.values()) {
          if (change.finish && !change.finish.bot && gone(change.finish.winner))
            change.finish.winner = ''
        }
        removeWhere(prebids, (prebid) => gone(prebid.userId))
        removeWhere(autoBids, (autoBid) => gone(autoBid.userId))
        for (const key of autoPlaced.keys()) if (gone(key.split('|')[1]!)) autoPlaced.delete(key)
        for (const c of converted) c.users = c.users.filter((userId) => !gone(userId))
      }
    }

    // Bids and ledger rows go in as arrays, one statement per table (a batch holds hundreds).
    if (bids.length) {
      await sql(
        `INSERT INTO "Bid" (id, "eventId", "auctionId", "userId", "botId", "isBot", "isAuto",
           "botName", "isPrebid", amount, "createdAt")
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[],
           $6::bool[], $7::bool[], $8::text[], $9::bool[], $10::int[], $11::timestamptz[])
         ON CONFLICT DO NOTHING`,
        [
          bids.map((b) => b.id),
          bids.map((b) => b.eventId),
          bids.map((b) => b.auctionId),
          bids.map((b) => b.userId),
          bids.map((b) => b.botId),
          bids.map((b) => b.isBot),
          bids.map((b) => b.isAuto),
          bids.map((b) => b.botName),
          bids.map((b) => b.isPrebid),
          bids.map((b) => b.amount),
          bids.map((b) => b.createdAt.toISOString()),
        ],
      )
    }
    if (prebids.length) {
      await sql(
        `INSERT INTO "Prebid" (id, "eventId", "auctionId", "userId", "createdAt")
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[])
         ON CONFLICT DO NOTHING`,
        [
          prebids.map((p) => p.id),
          prebids.map((p) => p.eventId),
          prebids.map((p) => p.auctionId),
          prebids.map((p) => p.userId),
          prebids.map((p) => p.createdAt.toISOString()),
        ],
      )
    }
    // Entries can be written out of order (a dead instance's pending ones are claimed 30 s
    // later), so a balance moves by the ledger rows written here rather than being set to an
    // entry's balanceAfter, which could be older than what Postgres already holds.
    const moved = new Map<string, number>()
    if (ledger.length) {
      const written = await sql<{ userId: string | null; amount: number }>(
        `INSERT INTO "BalanceLedger" (id, "userId", amount, "balanceAfter", reason, reference,
           "auctionId", "createdAt")
         SELECT gen_random_uuid()::text, v.* FROM unnest($1::text[], $2::int[], $3::int[],
           $4::"LedgerReason"[], $5::text[], $6::text[], $7::timestamptz[]) AS v
         ON CONFLICT DO NOTHING
         RETURNING "userId", amount`,
        [
          ledger.map((l) => l.userId),
          ledger.map((l) => l.amount),
          ledger.map((l) => l.balanceAfter),
          ledger.map((l) => l.reason),
          ledger.map((l) => l.reference),
          ledger.map((l) => l.auctionId),
          ledger.map((l) => l.createdAt.toISOString()),
        ],
      )
      for (const row of written.rows) {
        if (row.userId) moved.set(row.userId, (moved.get(row.userId) ?? 0) + row.amount)
      }
    }
    for (const c of converted) {
      await sql(
        `UPDATE "Prebid" SET "convertedAt" = $3
         WHERE "auctionId" = $1 AND "userId" = ANY($2::text[]) AND "convertedAt" IS NULL`,
        [c.auctionId, c.users, c.at.toISOString()],
      )
    }
    // Finishes one by one (a few per batch); everything else in one statement per table, so a
    // batch of hundreds of bids costs a handful of statements.
    const running = [...auctions].filter(([, change]) => !change.finish)
    for (const [id, change] of auctions) {
      const finish = change.finish
      if (!finish) continue
      const updated = await sql(
        `UPDATE "Auction" SET status = 'finished', "endTime" = $2, "finalPrice" = $3,
           "currentPrice" = $3, "totalBids" = $4, "winnerId" = $5, "winnerBotName" = $6,
           "prebidsCount" = "prebidsCount" + $7, "updatedAt" = now()
         WHERE id = $1`,
        [
          id,
          new Date(finish.endedAt).toISOString(),
          finish.price,
          finish.bids,
          finish.winner && !finish.bot ? finish.winner : null,
          finish.bot ? finish.name : null,
          change.addPrebids,
        ],
      )
      if (updated.rowCount !== 1) throw new MissingRowError('auction')
    }
    if (running.length) {
      running.sort(([a], [b]) => (a < b ? -1 : 1))
      const updated = await sql(
        `UPDATE "Auction" AS a SET
           "currentPrice" = GREATEST(a."currentPrice", v.price),
           "totalBids" = a."totalBids" + v.bids,
           "prebidsCount" = a."prebidsCount" + v.prebids,
           "status" = CASE WHEN v.started AND a."status" = 'upcoming'
             THEN 'live'::"AuctionStatus" ELSE a."status" END,
           "updatedAt" = now()
         FROM (SELECT unnest($1::text[]) AS id, unnest($2::int[]) AS price,
           unnest($3::int[]) AS bids, unnest($4::int[]) AS prebids,
           unnest($5::bool[]) AS started) AS v
         WHERE a.id = v.id`,
        [
          running.map(([id]) => id),
          running.map(([, c]) => c.priceMax),
          running.map(([, c]) => c.addBids),
          running.map(([, c]) => c.addPrebids),
          running.map(([, c]) => c.started),
        ],
      )
      if (updated.rowCount !== running.length) throw new MissingRowError('auction')
    }
    if (users.size) {
      const changes = [...users].sort(([a], [b]) => (a < b ? -1 : 1))
      const updated = await sql(
        `UPDATE "User" AS u SET
           "bidBalance" = u."bidBalance" + v.moved,
           "totalBids" = u."totalBids" + v.bids,
           "totalSpent" = u."totalSpent" + v.spent,
           "wonAuctions" = u."wonAuctions" + v.wins,
           "updatedAt" = now()
         FROM (SELECT unnest($1::text[]) AS id, unnest($2::int[]) AS moved,
           unnest($3::int[]) AS bids, unnest($4::int[]) AS spent,
           unnest($5::int[]) AS wins) AS v
         WHERE u.id = v.id`,
        [
          changes.map(([id]) => id),
          changes.map(([id]) => moved.get(id) ?? 0),
          changes.map(([, c]) => c.addBids),
          changes.map(([, c]) => c.addSpent),
          changes.map(([, c]) => c.addWins),
        ],
      )
      if (updated.rowCount !== changes.length) throw new MissingRowError('user')
    }
    // In stream order: a reserve creates or reopens the row, a return closes it.
    for (const { auctionId, userId, amount } of autoBids) {
      if (amount < 0) {
        // An auction deleted meanwhile keeps no auto-bid rows; its ledger rows still count.
        await sql(
          `INSERT INTO "AutoBid" (id, "auctionId", "userId", budget, "updatedAt")
           SELECT gen_random_uuid()::text, a.id, $2, $3, now() FROM "Auction" a WHERE a.id = $1
           ON CONFLICT ("auctionId", "userId") DO UPDATE SET
             budget = "AutoBid".budget + EXCLUDED.budget, status = 'active', "updatedAt" = now()`,
          [auctionId, userId, -amount],
        )
      } else {
        await sql(
          `UPDATE "AutoBid" SET returned = returned + $3, status = 'finished', "updatedAt" = now()
           WHERE "auctionId" = $1 AND "userId" = $2`,
          [auctionId, userId, amount],
        )
      }
    }
    for (const [key, count] of autoPlaced) {
      const [auctionId, userId] = key.split('|') as [string, string]
      await sql(
        `UPDATE "AutoBid" SET placed = placed + $3, "updatedAt" = now()
         WHERE "auctionId" = $1 AND "userId" = $2`,
        [auctionId, userId, count],
      )
    }
    for (const [key, count] of bots) {
      const [botId, auctionId] = key.split('|') as [string, string]
      await sql(
        `UPDATE "BotAssignment" SET "currentBids" = "currentBids" + $3
         WHERE "botId" = $1 AND "auctionId" = $2`,
        [botId, auctionId, count],
      )
    }
    return [...users].filter(([, change]) => change.addWins > 0).map(([id]) => id)
  }
}

class MissingRowError extends Error {}

function removeWhere<T>(list: T[], drop: (item: T) => boolean) {
  let kept = 0
  for (const item of list) if (!drop(item)) list[kept++] = item
  list.length = kept
}

type BidRow = {
  id: string
  eventId: string
  auctionId: string
  userId: string | null
  botId: string | null
  isBot: boolean
  isAuto: boolean
  botName: string | null
  isPrebid: boolean
  amount: number
  createdAt: Date
}

type LedgerRow = {
  userId: string | null
  amount: number
  balanceAfter: number
  reason: LedgerReason
  reference: string
  auctionId: string | null
  createdAt: Date
}

/** Errors that retrying cannot fix: a row the entry refers to is gone. */
function isDataError(error: unknown): boolean {
  if (error instanceof MissingRowError) return true
  // A foreign key or unique violation: Postgres codes 23503, 23505.
  const { code } = (error ?? {}) as { code?: unknown }
  return code === '23503' || code === '23505'
}
