import type { AuctionState, Engine } from '../../engine/index.ts'
import { auctionNameOf } from '~/models/auction-name.ts'
import {
  countAuctionBids,
  getAuctionBidRows,
  getAuctionGroupRows,
  getAuctionRowById,
  getAuctionRowsByIds,
  getAuctionRowBySlug,
  getHomeAuctionRows,
  getOpenAuctionRowsPage,
  getUpcomingRowsPage,
  type AuctionRow,
  type AuctionStatus,
} from '~/models/auction-rows.server.ts'
import { auctionBidJson, presentBid, type LiveBid } from '~/models/bid-json.ts'
import { recentRead } from '~/models/shared-reads.server.ts'
import { lockTime } from '~/utils/fair-play.ts'

// Auctions for people: the row from Postgres (auction-rows.server.ts) with the live numbers from
// the engine in Redis whenever the auction is not finished
// (docs/decisions/004-redis-hot-source-of-truth.md). auction-json.ts gives the API's shapes.

/** An auction as pages render it: money in minor units, times as ISO strings. */
export type AuctionView = Omit<
  AuctionRow,
  'startTime' | 'endTime' | 'createdAt' | 'winnerBotName'
> & {
  startTime: string
  endTime: string | null
  createdAt: string
  lastBidder: string | null
  /** A person's id, or `bot:<id>` for a bot. */
  lastBidderId: string | null
  /**
   * The house's markers; absent from what a visitor reads while house bids are not disclosed
   * (app/models/house-bids.ts).
   */
  lastBidderIsBot?: boolean
  winnerBotName?: string | null
  /** Live: ms left on the timer when read (server clock). */
  timeLeft: number | null
  /** Upcoming: ms until the start when read (server clock). */
  startsIn: number | null
  /**
   * Not finished and closing to new bidders (`lockAfterMinutes` after its start): ms until then
   * when read (server clock), 0 once past; null when it never closes.
   */
  lockIn: number | null
  /**
   * Live and past that moment when read: only people who already bid on it may bid
   * (docs/rules.md#fair-play-auctions).
   */
  locked: boolean
}

function toView(row: AuctionRow, state: AuctionState | null, now: number): AuctionView {
  // Redis knows better while the auction runs, and for a while after it ends, until the
  // outbox has written the finish to Postgres.
  const live = state && (row.status !== 'finished' || state.status === 'finished') ? state : null
  const status = live?.status ?? row.status
  const price = live?.price ?? row.currentPrice
  const lockAt = status === 'finished' ? null : lockTime(row)
  return {
    ...auctionNameOf(row),
    status,
    retailPrice: row.retailPrice,
    startingPrice: row.startingPrice,
    currentPrice: price,
    bidIncrement: row.bidIncrement,
    estimatedValue: row.estimatedValue,
    condition: row.condition,
    category: row.category,
    featured: row.featured,
    isBidPackage: row.isBidPackage,
    packageBids: row.packageBids,
    beginnerOnly: row.beginnerOnly,
    lockAfterMinutes: row.lockAfterMinutes,
    startTime: row.startTime.toISOString(),
    endTime: live?.endedAt
      ? new Date(live.endedAt).toISOString()
      : (row.endTime?.toISOString() ?? null),
    prebidsCount: Math.max(row.prebidsCount, live?.prebids ?? 0),
    totalBids: live ? live.bids : row.totalBids,
    // Once finished and written to Postgres, the last bid is the winner's (a person or a bot).
    lastBidder: live ? live.lastBidderName : (row.winner?.username ?? row.winnerBotName ?? null),
    lastBidderId: live?.lastBidder ?? null,
    lastBidderIsBot: live ? live.lastBidderIsBot : !row.winner && row.winnerBotName !== null,
    timeLeft:
      live?.status === 'live' && live.deadline !== null ? Math.max(0, live.deadline - now) : null,
    startsIn: status === 'upcoming' ? Math.max(0, row.startTime.getTime() - now) : null,
    lockIn: lockAt === null ? null : Math.max(0, lockAt - now),
    locked: status === 'live' && lockAt !== null && now >= lockAt,
    finalPrice: status === 'finished' ? (row.finalPrice ?? price) : null,
    winner:
      row.status === 'finished' && row.winner
        ? { username: row.winner.username }
        : status === 'finished' && live?.lastBidderName && !live.lastBidderIsBot
          ? { username: live.lastBidderName }
          : null,
    winnerBotName:
      row.winnerBotName ??
      (status === 'finished' && live?.lastBidderIsBot ? live.lastBidderName : null),
    createdAt: row.createdAt.toISOString(),
  }
}

async function withLiveState(engine: Engine, rows: AuctionRow[]): Promise<AuctionView[]> {
  const open = rows.filter((row) => row.status !== 'finished')
  const [now, states] = await Promise.all([
    engine.now(),
    engine.getStates(open.map((row) => row.id)),
  ])
  const byId = new Map(open.map((row, index) => [row.id, states[index] ?? null]))
  return rows.map((row) => toView(row, byId.get(row.id) ?? null, now))
}

export async function getAuctionBySlug(engine: Engine, slug: string): Promise<AuctionView | null> {
  const row = await getAuctionRowBySlug(engine, slug)
  if (!row) return null
  const [view] = await withLiveState(engine, [row])
  return view ?? null
}

export async function getAuctionById(engine: Engine, id: string): Promise<AuctionView | null> {
  const row = await getAuctionRowById(id)
  if (!row) return null
  const [view] = await withLiveState(engine, [row])
  return view ?? null
}

/** These auctions (the watchlist), in no particular order. */
export async function getAuctionsByIds(engine: Engine, ids: string[]): Promise<AuctionView[]> {
  return ids.length ? withLiveState(engine, await getAuctionRowsByIds(ids)) : []
}

/** Auctions not finished, live first then upcoming by start (the admin's table). */
export async function getOpenAuctionsPage(engine: Engine, page: number, perPage: number) {
  const { rows, ...paging } = await getOpenAuctionRowsPage(page, perPage)
  return { auctions: await withLiveState(engine, rows), ...paging }
}

/** The API's auctions answer: the three groups. */
export async function getAuctionGroups(engine: Engine, { finishedLimit = 20 } = {}) {
  const { open, finished } = await getAuctionGroupRows(finishedLimit)
  const views = await withLiveState(engine, [...open, ...finished])
  return {
    live: views.filter((view) => view.status === 'live'),
    upcoming: views.filter((view) => view.status === 'upcoming'),
    finished: views.filter((view) => view.status === 'finished'),
  }
}

/** The upcoming auctions page: sorted by start, paged (12 per page). */
export async function getUpcomingPage(engine: Engine, page: number, perPage = 12) {
  const { rows, ...paging } = await getUpcomingRowsPage(engine, page, perPage)
  return { auctions: await withLiveState(engine, rows), ...paging }
}

// Home page data.
export async function getHomeAuctions(engine: Engine, upcomingShown: number, liveShown: number) {
  const rows = await getHomeAuctionRows(engine, upcomingShown)
  const { packages, packageCount, upcoming, upcomingTotal, winners, featured } = rows
  // The first `liveShown` live auctions are shown (decision 027); the rest are counted.
  const live = rows.live.slice(0, liveShown)
  const views = await withLiveState(engine, [
    ...packages,
    ...live,
    ...upcoming,
    ...winners,
    ...(featured ? [featured] : []),
  ])
  let index = 0
  const take = (n: number) => views.slice(index, (index += n))
  return {
    packages: take(packages.length),
    packageCount,
    live: take(live.length).filter((view) => view.status === 'live'),
    liveTotal: rows.live.length,
    upcoming: take(upcoming.length),
    upcomingTotal,
    winners: take(winners.length),
    featured: featured ? (take(1)[0] ?? null) : null,
  }
}

/** The bid history: live auctions from Redis (newest first), finished ones from Postgres. */
export async function getAuctionBids(
  engine: Engine,
  auction: { id: string; status: AuctionStatus },
  limit = 50,
): Promise<LiveBid[]> {
  if (auction.status !== 'finished') {
    const recent = await engine.getRecentBids(auction.id, limit)
    if (recent.length > 0 || auction.status === 'upcoming') return recent.map(presentBid)
  }
  const rows = await getAuctionBidRows(auction.id, limit)
  return rows.map(auctionBidJson)
}

/**
 * Bid counts and distinct bidders (people by account, bots one by one) of one auction: a live
 * one's from Redis, kept by the bid script; others' counted in Postgres, up to 1 s old.
 */
export async function getAuctionStats(engine: Engine, auctionId: string) {
  return (
    (await engine.getBidStats(auctionId)) ??
    recentRead(`stats:${auctionId}`, 1_000, () => countAuctionBids(auctionId))
  )
}
