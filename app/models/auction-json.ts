import type { AuctionBidRow } from '~/models/auction.server.ts'
import type { AuctionView } from '~/models/auction-live.server.ts'
import type { LiveBid } from '~/models/live-auction.ts'
import { toMajor } from '~/utils/money.ts'

// The JSON API's auction and bid: money in som, as the API speaks it; inside the app money is in
// minor units (docs/decisions/003-money-minor-units.md).

/** The JSON API's auction: the page's view in som, with the price of the next bid. */
export function auctionJson(view: AuctionView) {
  return {
    ...view,
    retailPrice: toMajor(view.retailPrice),
    startingPrice: toMajor(view.startingPrice),
    currentPrice: toMajor(view.currentPrice),
    bidIncrement: toMajor(view.bidIncrement),
    nextBidPrice: toMajor(view.currentPrice + view.bidIncrement),
    estimatedValue: view.estimatedValue === null ? null : toMajor(view.estimatedValue),
    finalPrice: view.finalPrice === null ? null : toMajor(view.finalPrice),
  }
}

/** A bid written to Postgres, in the shape the live bid history has (live-auction.ts). */
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
