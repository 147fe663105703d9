import { BID_PRICE } from '~/utils/bid-packages.ts'
import { readRows } from '~/utils/sql.server.ts'

// What an auction has cost a person (docs/decisions/083-what-an-auction-has-cost-you.md): the bids
// they spent on it, how many of those were free, their value at the packages' 15 som a bid, and
// the Buy It Now price left after them. Plain SQL (app/utils/sql.server.ts): the auction page
// reads it on every view by a signed-in person. Money in minor units.

/**
 * The ledger reasons that credit free bids: the registration gift, also when it is given at phone
 * verification (reference `phone:{number}`, docs/decisions/059-telegram-and-verified-phone.md).
 */
export const FREE_CREDIT_REASONS = ['registration_bonus'] as const

/**
 * What Buy It Now asks of a person who spent `bids` on an item: retail less 15 som a bid, never
 * below 0 (docs/decisions/017-buy-it-now.md).
 */
export const buyNowPrice = (retailPrice: number, bids: number) =>
  Math.max(0, retailPrice - bids * BID_PRICE)

export type SpentOn = { bids: number; retailPrice: number; isBidPackage: boolean }

// Every Bid row of the person's that is not a bot's (clicks, converted prebids, auto-bids), plus
// prebids never converted: a converted prebid is its bid. Grouped by auction, with the facts the
// price needs; an auction they spent nothing on has 0.
const SPENT_SQL = `WITH spent AS (
    SELECT "auctionId" FROM "Bid"
      WHERE "userId" = $1 AND "auctionId" = ANY($2::text[]) AND NOT "isBot"
    UNION ALL
    SELECT "auctionId" FROM "Prebid"
      WHERE "userId" = $1 AND "auctionId" = ANY($2::text[]) AND "convertedAt" IS NULL)
  SELECT a.id, a."retailPrice", a."isBidPackage", count(s."auctionId")::int AS bids
  FROM "Auction" a LEFT JOIN spent s ON s."auctionId" = a.id
  WHERE a.id = ANY($2::text[]) GROUP BY a.id`

/** The bids `userId` spent on each of `auctionIds` (Buy It Now's `bidsSpent` too), by auction id. */
export async function bidsSpentOn(
  userId: string,
  auctionIds: readonly string[],
): Promise<Map<string, SpentOn>> {
  if (auctionIds.length === 0) return new Map()
  const rows = await readRows<SpentOn & { id: string }>('bids-spent-on', SPENT_SQL, [
    userId,
    [...new Set(auctionIds)],
  ])
  return new Map(rows.map(({ id, ...spent }) => [id, spent]))
}

// The auctions of the person's first F spent bids across all auctions, F being their free
// credits: the order is when each was placed, a prebid (converted or not) at its own
// `createdAt`. Only the first F of each kind can be among the first F of all, so neither list is
// read whole: the bids by the (userId, createdAt) index, the prebids (at most one per auction).
// A prebid is marked converted in the transaction that writes its bid (engine/outbox/write.ts).
const FIRST_FREE_SQL = `WITH credits AS (
    SELECT GREATEST(0, COALESCE(sum(amount), 0))::int AS n FROM "BalanceLedger"
      WHERE "userId" = $1 AND reason = ANY($2::"LedgerReason"[])),
  firsts AS (
    SELECT "auctionId" FROM (
      (SELECT "auctionId", "createdAt" AS at, id FROM "Bid"
        WHERE "userId" = $1 AND NOT "isBot" AND NOT "isPrebid"
        ORDER BY "createdAt", id LIMIT (SELECT n FROM credits))
      UNION ALL
      (SELECT "auctionId", "createdAt", id FROM "Prebid" WHERE "userId" = $1
        ORDER BY "createdAt", id LIMIT (SELECT n FROM credits))
    ) placed ORDER BY at, id LIMIT (SELECT n FROM credits))
  SELECT (SELECT n FROM credits) AS credits, ARRAY(SELECT "auctionId" FROM firsts) AS firsts`

/** The person's free credits, and the auction of each of their first (up to) that many bids. */
async function firstFreeBids(userId: string) {
  const rows = await readRows<{ credits: number; firsts: string[] }>(
    'first-free-bids',
    FIRST_FREE_SQL,
    [userId, FREE_CREDIT_REASONS],
  )
  return { credits: rows[0]?.credits ?? 0, firsts: rows[0]?.firsts ?? [] }
}

export type AuctionCost = {
  /** Bids and prebids spent on the auction. */
  bids: number
  /** Of them, how many were free credits (spent first, in the order bids were placed). */
  free: number
  /** Their value at the packages' 15 som a bid. */
  value: number
  /** Buy It Now's price after them; null for a bid-package auction, which has none. */
  buyNowPrice: number | null
}

/**
 * What each of `auctionIds` has cost `userId`, for those they spent bids on (two statements,
 * whatever the number of auctions). `pendingPrebidOn`: an upcoming auction the engine says they
 * hold a prebid on; while the outbox has not yet written it here it counts as their newest bid.
 */
export async function getAuctionCosts(
  userId: string,
  auctionIds: readonly string[],
  { pendingPrebidOn = null }: { pendingPrebidOn?: string | null } = {},
): Promise<Record<string, AuctionCost>> {
  const [spent, { credits, firsts }] = await Promise.all([
    bidsSpentOn(userId, auctionIds),
    firstFreeBids(userId),
  ])
  const costs: Record<string, AuctionCost> = {}
  for (const [id, { bids: written, retailPrice, isBidPackage }] of spent) {
    const pending = id === pendingPrebidOn && written === 0 ? 1 : 0
    const bids = written + pending
    if (bids === 0) continue
    // The two statements read at moments apart: the outbox may write the pending prebid between
    // them, and then the second already counts it. Never more free bids than bids.
    const listed = firsts.filter((first) => first === id).length
    const free = Math.min(bids, listed + (pending && !listed && firsts.length < credits ? 1 : 0))
    costs[id] = {
      bids,
      free,
      value: bids * BID_PRICE,
      buyNowPrice: isBidPackage ? null : buyNowPrice(retailPrice, bids),
    }
  }
  return costs
}
