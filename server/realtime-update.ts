// The auctionUpdate event's payload (server/realtime.ts).
import type { Engine } from '../engine/index.ts'
import { forVisitors } from '../app/models/house-bids.ts'
import { presentAuction, timersInSeconds } from '../app/models/auction-json.ts'
import { presentBid } from '../app/models/bid-json.ts'
import { getSettings } from '../app/models/settings.server.ts'
import { recordHead } from '../app/models/auction-record.server.ts'

const BIDS_IN_UPDATE = 10

/**
 * `{auction, bids, record, timers}` of one auction; its timer is the only one in the map. One update
 * goes to everyone in the room: it says what a visitor may read (app/models/house-bids.ts).
 */
export async function auctionUpdate(engine: Engine, auctionId: string) {
  const [view, { discloseHouseBids }] = await Promise.all([
    engine.getAuctionView(auctionId, BIDS_IN_UPDATE),
    getSettings(),
  ])
  if (!view) return null
  const { state, meta, bids, at } = view
  // The record's head after these bids (docs/fair-play.md), for bidders to keep.
  const record = await recordHead(auctionId, bids)
  const timers: Record<string, number> = {}
  if (state.status === 'live' && state.deadline !== null)
    timers[auctionId] = Math.max(0, state.deadline - at)
  const shown = forVisitors(
    { auction: presentAuction(state, at, meta), bids: bids.map(presentBid) },
    discloseHouseBids,
  )
  return { ...shown, record, timers: timersInSeconds(timers), sentAt: at }
}
