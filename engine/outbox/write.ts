import type { Logger } from '../types.ts'
import { OutboxBatch, type AuctionChange, type UserChange } from './batch.ts'
import { dropDeletedUsers } from './deleted-users.ts'
import type { OutboxEntry } from './events.ts'
import { gather } from './handlers/index.ts'
import { MissingRowError, type Sql } from './sql.ts'

// Finishes one by one (a few per batch); everything else in one statement per table, so a batch
// of hundreds of bids costs a handful of statements. The statements run in this order inside
// the caller's transaction.

/**
 * Writes entries inside one transaction; entries already written (their id is in
 * ProcessedEvent) are skipped.
 */
export async function writeEntries(sql: Sql, entries: OutboxEntry[], log: Logger): Promise<void> {
  const fresh = new Set(
    (
      await sql<{ id: string }>(
        'INSERT INTO "ProcessedEvent" (id) SELECT unnest($1::text[]) ON CONFLICT DO NOTHING RETURNING id',
        [entries.map((entry) => entry.id)],
      )
    ).rows.map((row) => row.id),
  )
  const batch = new OutboxBatch()
  for (const { id, fields } of entries) {
    if (!fresh.has(id)) continue
    if (!gather(batch, id, fields))
      log.warn('outbox entry of unknown type skipped', { id, type: fields.type })
  }

  await dropDeletedUsers(sql, batch)
  await insertBids(sql, batch)
  await insertPrebids(sql, batch)
  const moved = await insertLedger(sql, batch)
  await markPrebidsConverted(sql, batch)
  const running = [...batch.auctions].filter(([, change]) => !change.finish)
  await finishAuctions(sql, batch.auctions)
  await updateRunningAuctions(sql, running)
  await updateUsers(sql, batch.users, moved)
  await writeAutoBids(sql, batch)
  await countBotBids(sql, batch.bots)
}

async function insertBids(sql: Sql, { bids }: OutboxBatch) {
  if (!bids.length) return
  await sql(
    `INSERT INTO "Bid" (id, "eventId", "auctionId", "userId", "botId", "isBot", "isAuto",
       "botName", "isPrebid", amount, "createdAt", seq, kind, "bidderName")
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[],
       $6::bool[], $7::bool[], $8::text[], $9::bool[], $10::int[], $11::timestamptz[],
       $12::int[], $13::text[], $14::text[])
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
      bids.map((b) => b.seq),
      bids.map((b) => b.kind),
      bids.map((b) => b.bidderName),
    ],
  )
}

async function insertPrebids(sql: Sql, { prebids }: OutboxBatch) {
  if (!prebids.length) return
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

/**
 * Inserts the ledger rows; returns how far each user's balance moves. Entries can be written
 * out of order (a dead instance's pending ones are claimed 30 s later), so a balance moves by
 * the ledger rows written here rather than being set to an entry's balanceAfter, which could be
 * older than what Postgres already holds.
 */
async function insertLedger(sql: Sql, { ledger }: OutboxBatch): Promise<Map<string, number>> {
  const moved = new Map<string, number>()
  if (!ledger.length) return moved
  const written = await sql<{ userId: string | null; amount: number }>(
    `INSERT INTO "BalanceLedger" (id, "userId", amount, "balanceAfter", reason, reference,
       "auctionId", "createdAt", "adminId", note)
     SELECT gen_random_uuid()::text, v.* FROM unnest($1::text[], $2::int[], $3::int[],
       $4::"LedgerReason"[], $5::text[], $6::text[], $7::timestamptz[], $8::text[],
       $9::text[]) AS v
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
      ledger.map((l) => l.adminId ?? null),
      ledger.map((l) => l.note ?? null),
    ],
  )
  for (const row of written.rows) {
    if (row.userId) moved.set(row.userId, (moved.get(row.userId) ?? 0) + row.amount)
  }
  return moved
}

async function markPrebidsConverted(sql: Sql, { converted }: OutboxBatch) {
  for (const c of converted) {
    await sql(
      `UPDATE "Prebid" SET "convertedAt" = $3
       WHERE "auctionId" = $1 AND "userId" = ANY($2::text[]) AND "convertedAt" IS NULL`,
      [c.auctionId, c.users, c.at.toISOString()],
    )
  }
}

async function finishAuctions(sql: Sql, auctions: Map<string, AuctionChange>) {
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
}

async function updateRunningAuctions(sql: Sql, running: Array<[string, AuctionChange]>) {
  if (!running.length) return
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

async function updateUsers(sql: Sql, users: Map<string, UserChange>, moved: Map<string, number>) {
  if (!users.size) return
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

/**
 * Adds to an auto-bidder's row, making it when it is not there yet: a dead instance's entries
 * are claimed and written after newer ones (docs/operations.md), so a bid or a return can come
 * before the reserve that opened the row, and each count must land whatever the order. An
 * auction deleted meanwhile keeps no auto-bid rows; its ledger rows still count.
 */
async function addToAutoBid(
  sql: Sql,
  auctionId: string,
  userId: string,
  add: { budget?: number; placed?: number; returned?: number },
  status: 'active' | 'finished' | null,
) {
  await sql(
    `INSERT INTO "AutoBid" (id, "auctionId", "userId", budget, placed, returned, status, "updatedAt")
     SELECT gen_random_uuid()::text, a.id, $2, $3, $4, $5, COALESCE($6, 'active')::"AutoBidStatus", now()
     FROM "Auction" a WHERE a.id = $1
     ON CONFLICT ("auctionId", "userId") DO UPDATE SET
       budget = "AutoBid".budget + EXCLUDED.budget,
       placed = "AutoBid".placed + EXCLUDED.placed,
       returned = "AutoBid".returned + EXCLUDED.returned,
       status = COALESCE($6::"AutoBidStatus", "AutoBid".status),
       "updatedAt" = now()`,
    [auctionId, userId, add.budget ?? 0, add.placed ?? 0, add.returned ?? 0, status],
  )
}

async function writeAutoBids(sql: Sql, { autoBids, autoPlaced }: OutboxBatch) {
  // In stream order: a reserve creates or reopens the row, a return closes it.
  for (const { auctionId, userId, amount } of autoBids) {
    if (amount < 0) await addToAutoBid(sql, auctionId, userId, { budget: -amount }, 'active')
    else await addToAutoBid(sql, auctionId, userId, { returned: amount }, 'finished')
  }
  for (const [key, count] of autoPlaced) {
    const [auctionId, userId] = key.split('|') as [string, string]
    await addToAutoBid(sql, auctionId, userId, { placed: count }, null)
  }
}

async function countBotBids(sql: Sql, bots: Map<string, number>) {
  for (const [key, count] of bots) {
    const [botId, auctionId] = key.split('|') as [string, string]
    await sql(
      `UPDATE "BotAssignment" SET "currentBids" = "currentBids" + $3
       WHERE "botId" = $1 AND "auctionId" = $2`,
      [botId, auctionId, count],
    )
  }
}
