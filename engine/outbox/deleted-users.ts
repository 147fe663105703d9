import type { OutboxBatch } from './batch.ts'
import type { Sql } from './sql.ts'

/**
 * An account deleted while its entries waited in the outbox (docs/decisions/012-admin-deletes.md):
 * its bids, ledger rows and wins stay without a name, its prebids and auto-bids went with it, and
 * nothing about it may stop the rest of the batch.
 */
export async function dropDeletedUsers(sql: Sql, batch: OutboxBatch) {
  const { auctions, users, bids, ledger, prebids, autoBids, autoPlaced, converted } = batch
  const named = new Set<string>(users.keys())
  for (const bid of bids) if (bid.userId) named.add(bid.userId)
  for (const change of auctions.values()) {
    if (change.finish?.winner && !change.finish.bot) named.add(change.finish.winner)
  }
  if (!named.size) return
  const present = new Set(
    (
      await sql<{ id: string }>('SELECT id FROM "User" WHERE id = ANY($1::text[])', [[...named]])
    ).rows.map((row) => row.id),
  )
  if (present.size >= named.size) return
  const gone = (userId: string | null) => userId !== null && !present.has(userId)
  for (const bid of bids) if (gone(bid.userId)) bid.userId = null
  for (const row of ledger) if (gone(row.userId)) row.userId = null
  for (const userId of named) if (gone(userId)) users.delete(userId)
  for (const change of auctions.values()) {
    if (change.finish && !change.finish.bot && gone(change.finish.winner)) change.finish.winner = ''
  }
  // A prebid that is not written is not counted either: the deletion already took the account's
  // prebids out of the auction's count in Redis and Postgres.
  removeWhere(prebids, (prebid) => {
    if (!gone(prebid.userId)) return false
    const change = auctions.get(prebid.auctionId)
    if (change) change.addPrebids -= 1
    return true
  })
  removeWhere(autoBids, (autoBid) => gone(autoBid.userId))
  for (const key of autoPlaced.keys()) if (gone(key.split('|')[1]!)) autoPlaced.delete(key)
  for (const c of converted) c.users = c.users.filter((userId) => !gone(userId))
}

function removeWhere<T>(list: T[], drop: (item: T) => boolean) {
  let kept = 0
  for (const item of list) if (!drop(item)) list[kept++] = item
  list.length = kept
}
