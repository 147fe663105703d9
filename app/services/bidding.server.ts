import type { TFunction } from 'i18next'
import type { BidRejection, Engine, PrebidRejection } from '../../engine/index.ts'
import { noteRequest } from '~/services/logger.server.ts'
import { bidsRejected } from '~/services/metrics.server.ts'
import { getPrisma } from '~/utils/db.server.ts'

// One place turns an engine answer into what people see (docs/rules.md#refusals): a status for the
// API and a message in their language, the same for the page actions and the JSON calls.

type Rejection = BidRejection | PrebidRejection

const statusOf: Record<Rejection, number> = {
  auction_not_found: 404,
  auction_not_live: 409,
  auction_ended: 409,
  already_leading: 409,
  too_fast: 429,
  insufficient_bids: 402,
  user_not_found: 401,
  auction_not_upcoming: 409,
  already_prebid: 409,
}

export type BidOutcome =
  | { ok: true; status: 200; message: string; price: number; balance: number | null }
  | { ok: false; status: number; reason: Rejection; message: string }

/**
 * The engine keeps only auctions that are open (and finished ones for a while); one it does not
 * know may still be in Postgres: finished long ago, or not loaded yet.
 */
async function whyMissing(auctionId: string, reason: Rejection): Promise<Rejection> {
  if (reason !== 'auction_not_found' || !auctionId) return reason
  const row = await getPrisma().auction.findUnique({
    where: { id: auctionId },
    select: { status: true },
  })
  if (row?.status === 'finished') return 'auction_ended'
  if (row) return 'auction_not_live'
  return reason
}

function rejected(kind: 'bid' | 'prebid', reason: Rejection, t: TFunction): BidOutcome {
  bidsRejected.inc({ kind, reason })
  return { ok: false, status: statusOf[reason], reason, message: t(`bidding.errors.${reason}`) }
}

export async function placeBid(
  engine: Engine,
  auctionId: string,
  userId: string,
  t: TFunction,
): Promise<BidOutcome> {
  noteRequest({ auctionId })
  const result = await engine.bid(auctionId, userId)
  if (!result.ok) return rejected('bid', await whyMissing(auctionId, result.reason), t)
  return {
    ok: true,
    status: 200,
    message: t('bidding.bidPlaced'),
    price: result.price,
    balance: result.balance,
  }
}

export async function placePrebid(
  engine: Engine,
  auctionId: string,
  userId: string,
  t: TFunction,
): Promise<BidOutcome> {
  noteRequest({ auctionId })
  const result = await engine.prebid(auctionId, userId)
  if (!result.ok) {
    const reason = await whyMissing(auctionId, result.reason)
    return rejected('prebid', reason === 'auction_not_live' ? 'auction_not_upcoming' : reason, t)
  }
  return {
    ok: true,
    status: 200,
    message: t('bidding.prebidPlaced'),
    price: 0,
    balance: result.balance,
  }
}
