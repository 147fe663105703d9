import type { AuditKind } from './audit-chain.ts'
// The engine's vocabulary, shared with the web tier. Money is minor units; times are Redis
// server time in milliseconds.

export const BID_TIMER_MS = 10_000
export const MIN_BID_INTERVAL_MS = 1_000
export const RECENT_BIDS_KEPT = 50

export type AuctionStatus = 'upcoming' | 'live' | 'finished'

export type BidRejection =
  | 'auction_not_found'
  | 'auction_not_live'
  | 'auction_ended'
  | 'already_leading'
  | 'too_fast'
  | 'insufficient_bids'
  | 'user_not_found'
  | FairPlayRejection
  | 'auction_locked'

/**
 * Refused by a fair-play rule or the person's own limits (docs/rules.md#fair-play-auctions,
 * docs/rules.md#limits-a-bidder-sets), in the bid script itself.
 */
export type FairPlayRejection = 'beginner_only' | 'win_limit' | 'self_excluded' | 'daily_limit'

/** The refusals of a rule that will not pass while the auction runs (its lock included). */
export const RULE_REFUSALS = [
  'beginner_only',
  'win_limit',
  'self_excluded',
  'daily_limit',
  'auction_locked',
] as const satisfies ReadonlyArray<FairPlayRejection | 'auction_locked'>

export type PrebidRejection =
  | 'auction_not_found'
  | 'auction_not_upcoming'
  | 'already_prebid'
  | 'insufficient_bids'
  | 'user_not_found'
  | FairPlayRejection

export type BotBidRejection =
  | 'auction_not_found'
  | 'auction_not_live'
  | 'auction_ended'
  | 'already_leading'
  | 'bot_limit_reached'
  | 'auction_locked'

/** One bid as the recent-bids list and the real-time messages carry it. */
export type RecentBid = {
  id: string
  /** User id, or `bot:<botId>` for a bot. */
  bidder: string
  name: string
  bot: boolean
  prebid: boolean
  /** The auction's price after this bid. */
  price: number
  at: number
  /**
   * Its place in the auction's record and how it came (docs/fair-play.md); absent on a bid
   * listed before the record was kept.
   */
  seq?: number
  kind?: AuditKind
}

/** What a page needs to show an auction besides its live numbers (kept in Redis as JSON). */
export type AuctionMeta = {
  displayId: string
  slug: string
  title: string
  imageUrl: string | null
  retailPrice: number
  isBidPackage: boolean
}

/** The live state of an auction, straight from Redis. */
export type AuctionState = {
  id: string
  status: AuctionStatus
  price: number
  increment: number
  startTime: number
  /** Live: when the timer runs out if nobody bids. */
  deadline: number | null
  endedAt: number | null
  lastBidder: string | null
  lastBidderName: string | null
  lastBidderIsBot: boolean
  bids: number
  prebids: number
}

export type BidAccepted = {
  ok: true
  bidId: string
  price: number
  deadline: number
  bids: number
  /** The bidder's balance after the debit; null for bots. */
  balance: number | null
  at: number
}

export type BidResult = BidAccepted | { ok: false; reason: BidRejection }
export type BotBidResult = BidAccepted | { ok: false; reason: BotBidRejection }

/** An auto bid is refused for the same reasons as a manual one, or an empty budget. */
export type AutoBidRejection = BidRejection | 'no_budget'
export type AutoBidPlaceResult = BidAccepted | { ok: false; reason: AutoBidRejection }

/** Bids one call may reserve; a budget can grow by several calls. */
export const AUTO_BID_MAX = 1000

export type AutoBidRejectionOnSet =
  | 'auction_not_found'
  | 'auction_ended'
  | 'insufficient_bids'
  | 'invalid_bids'
  | 'user_not_found'
  | FairPlayRejection
  | 'auction_locked'

/** A user's auto-bidder on one auction: bids left in the budget and bids it placed. */
export type AutoBidStatus = { left: number; placed: number }

export type AutoBidSetResult =
  ({ ok: true; balance: number } & AutoBidStatus) | { ok: false; reason: AutoBidRejectionOnSet }

export type PrebidResult =
  | { ok: true; prebidId: string; balance: number; prebids: number; at: number }
  | { ok: false; reason: PrebidRejection }

export type LedgerReason =
  | 'registration_bonus'
  | 'topup'
  | 'refund'
  | 'seed'
  /** An auto-bid budget paid back from Postgres when its auction is deleted (engine/refunds.ts). */
  | 'autobid_return'
  /** A paid bid-package auction's order: its bids, once per order (engine/package-orders.ts). */
  | 'bid_package_win'

export type CreditResult =
  { ok: true; applied: boolean; balance: number } | { ok: false; reason: 'user_not_found' }

/** The bids of a refunded payment, taken back (docs/payments.md); also ledger reason. */
export const PAYMENT_REFUND = 'payment_refund'

/**
 * Bids taken back once per reference: `taken` is what that reference took (0 when the balance
 * was empty); null on a repeat whose ledger row is still on its way to Postgres (ask again).
 */
export type TakeBackResult =
  | { ok: true; applied: boolean; taken: number | null; balance: number }
  | { ok: false; reason: 'user_not_found' }

/**
 * The most bids an admin's credit may bring a balance to (a balance is a 32-bit integer in
 * Postgres; purchases may still take it further).
 */
export const ADMIN_BALANCE_MAX = 10_000_000

/** An admin's change of a balance by a number of bids (docs/decisions/028-balance-adjustments.md). */
/** What an admin asks of a balance: a change by `delta`, or a new balance (`target`). */
export type BalanceChange = (
  | {
      /** Bids added (> 0) or taken away (< 0). */
      delta: number
      target?: undefined
    }
  | {
      /** The balance wanted: the ledger records its difference from the balance at that moment. */
      target: number
      delta?: undefined
    }
) & {
  /** The admin's reason, kept in the ledger; may be empty for a set (the API's plain bidBalance). */
  note: string
  /** When given, the change applies only while the balance is exactly this (else `stale`). */
  expected?: number
}

export type BalanceAdjustment = BalanceChange & {
  /** Unique per change: a retry with the same reference changes nothing (`applied: false`). */
  reference: string
  adminId: string
}

export type AdjustResult =
  CreditResult | { ok: false; reason: 'below_zero' | 'above_max' | 'stale'; balance: number }

export type EngineEvents = {
  bid: [{ auctionId: string; bid: RecentBid; state: BidAccepted; userId: string | null }]
  prebid: [{ auctionId: string; userId: string; prebids: number }]
  started: [{ auctionIds: string[] }]
  finished: [{ auctionIds: string[] }]
  balance: [{ userId: string; balance: number }]
  timers: [{ timers: Record<string, number>; at: number }]
  leader: [{ leader: boolean }]
  autobid: [{ auctionId: string; userId: string; status: AutoBidStatus | null }]
  /**
   * Raised by the web app, not the engine (app/services/auth.server.ts): a session ended
   * (`sessionId`: logout) or every session of an account (`userId`: logging out everywhere,
   * the account deleted). server/realtime.ts closes their sockets on every instance.
   */
  signedOut: [{ sessionId: string } | { userId: string }]
}

export type Logger = {
  debug: (msg: string, fields?: Record<string, unknown>) => void
  info: (msg: string, fields?: Record<string, unknown>) => void
  warn: (msg: string, fields?: Record<string, unknown>) => void
  error: (msg: string, fields?: Record<string, unknown>) => void
}

export const silentLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
}
