import type { AuctionState, RecentBid } from '../../engine/index.ts'
import type { AuctionBidRow } from '~/models/auction-rows.server.ts'
import { toMajor } from '~/utils/money.ts'

// Bids as JSON (docs/rules.md#real-time-events): the bid history of the pages, the API and the
// real-time updates, from the engine's recent bids in Redis or the bids written to Postgres.
// Money in som (0.01), as the API speaks; times as ISO strings.

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

/** A bid written to Postgres, in the shape of a live one. */
export function auctionBidJson(row: AuctionBidRow): LiveBid {
  return {
    id: row.id,
    amount: toMajor(row.amount),
    isBot: row.isBot,
    botName: row.botName,
    isPrebid: row.isPrebid,
    // A bot is the bidder as a person is (a deleted bot, like a deleted account, has none).
    user:
      row.user ??
      (row.isBot && row.botId && row.botName ? { id: row.botId, username: row.botName } : null),
    createdAt: row.createdAt.toISOString(),
  }
}
