import type { AuctionView } from '~/models/auction-view.server.ts'

/**
 * What an auction card (home page, auctions list, winners of the day) shows and follows live:
 * the page's data carries only this for each card, not the whole auction (description and
 * the rest are for the auction's own page).
 */
export type AuctionCardView = Pick<
  AuctionView,
  | 'id'
  | 'slug'
  | 'title'
  | 'displayId'
  | 'imageUrl'
  | 'status'
  | 'currentPrice'
  | 'finalPrice'
  | 'retailPrice'
  | 'packageBids'
  | 'beginnerOnly'
  | 'lockAfterMinutes'
  | 'lockIn'
  | 'locked'
  | 'startTime'
  | 'endTime'
  | 'timeLeft'
  | 'totalBids'
  | 'prebidsCount'
  | 'lastBidder'
  | 'lastBidderId'
  | 'lastBidderIsBot'
> & {
  /** A finished auction's winner: the person's username or the bot's name; null when none. */
  winnerName: string | null
}

export function toCardView(view: AuctionView): AuctionCardView {
  return {
    id: view.id,
    slug: view.slug,
    title: view.title,
    displayId: view.displayId,
    imageUrl: view.imageUrl,
    status: view.status,
    currentPrice: view.currentPrice,
    finalPrice: view.finalPrice,
    retailPrice: view.retailPrice,
    packageBids: view.packageBids,
    beginnerOnly: view.beginnerOnly,
    lockAfterMinutes: view.lockAfterMinutes,
    lockIn: view.lockIn,
    locked: view.locked,
    startTime: view.startTime,
    endTime: view.endTime,
    timeLeft: view.timeLeft,
    totalBids: view.totalBids,
    prebidsCount: view.prebidsCount,
    lastBidder: view.lastBidder,
    lastBidderId: view.lastBidderId,
    ...(view.lastBidderIsBot === undefined ? {} : { lastBidderIsBot: view.lastBidderIsBot }),
    winnerName: view.winner?.username ?? view.winnerBotName ?? null,
  }
}
