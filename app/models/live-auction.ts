import type { AuctionMeta, AuctionState, RecentBid } from '../../engine/index.ts'
import { toMajor } from '~/utils/money.ts'

// The JSON shapes of live auction data (docs/rules.md#real-time-events), built from the engine's Redis state.
// Money in som (0.01), as the API speaks; times in ms since the epoch (server clock).

export type LiveBid = {
  id: string
  amount: number
  /** Absent while house bids are not disclosed (app/models/house-bids.ts), as `botName` is. */
  isBot?: boolean
  botName?: string | null
  isPrebid: boolean
  /**
   * Who bid. The models give a bot here too (its id and name); what a visitor reads is shaped by
   * app/models/house-bids.ts.
   */
  user: { id: string; username: string } | null
  createdAt: string
}

/**
 * A bid's place in its auction (docs/rules.md#auction-page): the newest bid of a live auction is
 * winning and the older ones are outbid; once the auction has finished, the newest bid won and
 * the others lost. Prebids of an upcoming auction have no status yet.
 */
export type BidStatus = 'winning' | 'outbid' | 'won' | 'lost'

/** `newest` is whether the bid is the auction's latest one. */
export function bidStatus(status: AuctionState['status'], newest: boolean): BidStatus | null {
  if (status === 'live') return newest ? 'winning' : 'outbid'
  if (status === 'finished') return newest ? 'won' : 'lost'
  return null
}

export type LiveAuction = {
  id: string
  status: AuctionState['status']
  currentPrice: number
  bidIncrement: number
  nextBidPrice: number
  totalBids: number
  prebidsCount: number
  lastBidder: string | null
  /** Absent while house bids are not disclosed (app/models/house-bids.ts). */
  lastBidderIsBot?: boolean
  /** Live: milliseconds left on the timer when this was read. */
  timeLeft: number | null
  endedAt: string | null
} & Partial<AuctionMeta>

// The engine gives the same object for the same recent bid each time it reads it (an update
// or a page shows the newest bids again and again): each is presented once. Shared: read only.
const presentedBids = new WeakMap<RecentBid, LiveBid>()

export function presentBid(bid: RecentBid): LiveBid {
  let presented = presentedBids.get(bid)
  if (!presented) {
    presented = {
      id: bid.id,
      amount: toMajor(bid.price),
      isBot: bid.bot,
      botName: bid.bot ? bid.name : null,
      isPrebid: bid.prebid,
      user: { id: bid.bot ? bid.bidder.slice('bot:'.length) : bid.bidder, username: bid.name },
      createdAt: new Date(bid.at).toISOString(),
    }
    presentedBids.set(bid, presented)
  }
  return presented
}

export function presentAuction(
  state: AuctionState,
  now: number,
  meta?: AuctionMeta | null,
): LiveAuction {
  return {
    ...(meta ?? {}),
    id: state.id,
    status: state.status,
    currentPrice: toMajor(state.price),
    bidIncrement: toMajor(state.increment),
    nextBidPrice: toMajor(state.price + state.increment),
    totalBids: state.bids,
    prebidsCount: state.prebids,
    lastBidder: state.lastBidderName,
    lastBidderIsBot: state.lastBidderIsBot,
    timeLeft: state.deadline === null ? null : Math.max(0, state.deadline - now),
    endedAt: state.endedAt ? new Date(state.endedAt).toISOString() : null,
  }
}

/** Timers (docs/rules.md#calls): auction id -> whole seconds left. */
export function timersInSeconds(timers: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {}
  for (const [id, ms] of Object.entries(timers)) out[id] = Math.ceil(ms / 1000)
  return out
}
