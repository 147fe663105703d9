import type { TFunction } from 'i18next'
import {
  MIN_BID_INTERVAL_MS,
  type BidRejection,
  type Engine,
  type PrebidRejection,
} from '../../engine/index.ts'
import { errorFields, log, noteRequest } from '~/utils/logger.server.ts'
import { bidsRejected } from '~/services/metrics.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import { FAIR_PLAY_STATUS } from '~/utils/fair-play-refusals.ts'

// One place turns an engine answer into what people see (docs/rules.md#refusals): a status for the
// API and a message in their language, the same for the page actions and the JSON calls.

type Rejection = BidRejection | PrebidRejection

/** The one table from a refusal to the HTTP status the API, the form and the fetcher answer with. */
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
  ...FAIR_PLAY_STATUS,
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

export type BidIntent = 'bid' | 'prebid'

/** A bid (`price` the auction's new one) or a prebid (price 0) the engine took. */
const placed = (message: string, price: number, balance: number | null): BidOutcome => ({
  ok: true,
  status: 200,
  message,
  price,
  balance,
})

/** Places a bid or a prebid through the engine: taken, or refused with a status and message. */
async function place(
  engine: Engine,
  intent: BidIntent,
  auctionId: string,
  userId: string,
  t: TFunction,
): Promise<BidOutcome> {
  noteRequest({ auctionId })
  if (intent === 'bid') {
    const result = await engine.bid(auctionId, userId)
    if (!result.ok) return rejected('bid', await whyMissing(auctionId, result.reason), t)
    return placed(t('bidding.bidPlaced'), result.price, result.balance)
  }
  const result = await engine.prebid(auctionId, userId)
  if (!result.ok) {
    const reason = await whyMissing(auctionId, result.reason)
    return rejected('prebid', reason === 'auction_not_live' ? 'auction_not_upcoming' : reason, t)
  }
  return placed(t('bidding.prebidPlaced'), 0, result.balance)
}

/**
 * What a bid or prebid comes to, for whoever sent it: the JSON API, the bid buttons' form
 * without JavaScript and their fetcher with it all answer from this, with its status and
 * headers (`Retry-After` when the bidder is too fast or Redis is out of reach).
 */
export type BidDecision = (
  | { ok: true; message: string; price: number; balance: number | null }
  | { ok: false; reason: Rejection | 'login' | 'unavailable'; message: string }
) & { status: number; headers?: Record<string, string> }

export async function decideBid(
  engine: Engine,
  intent: BidIntent,
  auctionId: string,
  userId: string | null,
  t: TFunction,
): Promise<BidDecision> {
  if (!userId) {
    const message = intent === 'bid' ? t('bidding.loginToBid') : t('bidding.loginToPrebid')
    return { ok: false, status: 401, reason: 'login', message }
  }
  let outcome: BidOutcome
  try {
    outcome = await place(engine, intent, auctionId, userId, t)
  } catch (error) {
    // Redis or Postgres out of reach: a clean answer to try again, not a 500.
    log.warn(`${intent} not placed: a service is unavailable`, errorFields(error))
    return {
      ok: false,
      status: 503,
      reason: 'unavailable',
      message: t('api.unavailable'),
      headers: { 'Retry-After': '2' },
    }
  }
  if (outcome.ok) return outcome
  // Too soon after this person's last bid: the next one is allowed within the interval.
  const headers =
    outcome.reason === 'too_fast'
      ? { 'Retry-After': String(Math.ceil(MIN_BID_INTERVAL_MS / 1000)) }
      : undefined
  return { ...outcome, headers }
}
