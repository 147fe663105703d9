import type { PrismaClient } from '../prisma/generated/client.ts'

// What people have paid for on an auction and not yet got as bids, as Postgres holds it (the
// rows the outbox wrote): prebids neither turned into bids nor refunded, and what is left of
// auto-bid budgets. Loading an auction Redis lost puts them back (engine/lua/load-auction.lua);
// deleting an auction pays them back (engine/refunds.ts). See
// docs/decisions/040-holds-rebuilt-from-postgres.md.

/** The reference of the refund of one prebid (its Prebid row's id) when its auction goes. */
export const prebidRefundReference = (prebidId: string) => `prebid-refund:${prebidId}`

/** The reference of the return of an auto-bid budget (its AutoBid row's id) when its auction goes. */
export const budgetRefundReference = (autoBidId: string) => `autobid-refund:${autoBidId}`

/** The prefix of budgetRefundReference: the outbox closes the AutoBid row it names. */
export const BUDGET_REFUND_PREFIX = 'autobid-refund:'

export type PrebidHold = { id: string; userId: string }

/** An auto-bidder's budget: bids still reserved (`left`) and placed from it so far. */
export type BudgetHold = { id: string; userId: string; left: number; placed: number }

/**
 * Prebids on the auction that are neither a bid nor refunded, in the order placed. A refund
 * made before these references existed (`refund:prebid:<auction>:<user>`) counts too.
 */
export async function readPrebidHolds(
  prisma: PrismaClient,
  auctionId: string,
): Promise<PrebidHold[]> {
  const rows = await prisma.$queryRaw<Array<{ id: string; userId: string; at: Date }>>`
    SELECT p.id, p."userId", p."createdAt" AS at FROM "Prebid" p
    WHERE p."auctionId" = ${auctionId} AND p."convertedAt" IS NULL
      AND NOT EXISTS (SELECT 1 FROM "Bid" b
        WHERE b."auctionId" = p."auctionId" AND b."userId" = p."userId" AND b."isPrebid")
      AND NOT EXISTS (SELECT 1 FROM "BalanceLedger" l WHERE l.reference IN
        ('prebid-refund:' || p.id, 'refund:prebid:' || p."auctionId" || ':' || p."userId"))`
  return rows
    .map((row) => ({ row, order: placedOrder(row.id, row.at) }))
    .sort((a, b) => a.order[0] - b.order[0] || a.order[1] - b.order[1])
    .map(({ row }) => ({ id: row.id, userId: row.userId }))
}

/**
 * A prebid's place in line: the outbox writes a Prebid row under its stream entry's id
 * (`<ms>-<n>`), which orders prebids made in the same millisecond; other rows by their time.
 */
function placedOrder(id: string, at: Date): [number, number] {
  const match = /^(\d+)-(\d+)$/.exec(id)
  return match ? [Number(match[1]), Number(match[2])] : [at.getTime(), 0]
}

/**
 * Auto-bid budgets on the auction: every running auto-bidder (also one with nothing left, as
 * Redis shows it) and any row that still holds bids.
 */
export async function readBudgetHolds(
  prisma: PrismaClient,
  auctionId: string,
): Promise<BudgetHold[]> {
  return prisma.$queryRaw<BudgetHold[]>`
    SELECT id, "userId", (budget - placed - returned)::int AS "left", placed FROM "AutoBid"
    WHERE "auctionId" = ${auctionId}
      AND (status = 'active' OR budget - placed - returned > 0) AND budget - placed - returned >= 0
    ORDER BY "createdAt", id`
}
