import type { AuctionMeta, AuctionState } from '../../engine/index.ts'
import type { AuctionView } from '~/models/auction-view.server.ts'
import { toMajor } from '~/utils/money.ts'

// Auctions as JSON: money in som (0.01), as the API speaks; inside the app money is in minor
// units (docs/decisions/003-money-minor-units.md). The JSON API's auction is the page's view
// (auction-view.server.ts) in som; the real-time updates' is built from the engine's Redis state
// (docs/rules.md#real-time-events), times in ms since the epoch (server clock).

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

/** An auction as the real-time updates carry it, from the engine's state. */
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
