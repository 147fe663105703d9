import type { Engine } from '../../engine/index.ts'
import { getAuctionById, getAuctionsByIds, type AuctionView } from '~/models/auction-view.server.ts'
import { cardMarks } from '~/models/viewer-marks.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import { readRows } from '~/utils/sql.server.ts'
import { DomainError } from '~/utils/domain-error.ts'
import { pageOf } from '~/utils/paging.ts'

// The watchlist (docs/rules.md#watchlist): what a person watches, for the pages, the JSON API
// and the alerts. A prebid counts as watching without a row of its own, unless the person
// stopped watching that auction: then a row with `watching` false keeps it off.

export const WATCH_NS = 'watch'

/** An auction id as the site makes them (cuid) or as tests name them: anything else is malformed. */
const AUCTION_ID = /^[A-Za-z0-9_-]{1,64}$/

/**
 * Starts (`watching` true) or stops watching an auction; both idempotent. Refusals: 400 a
 * malformed id, 404 an unknown auction, 409 watching a finished one (stopping is always allowed:
 * a finished auction stays on the list for a day after its end, FINISHED_KEPT_MS).
 */
export async function setWatching(
  engine: Engine,
  userId: string,
  auctionId: string,
  watching: boolean,
): Promise<boolean> {
  if (!AUCTION_ID.test(auctionId)) throw new DomainError(400, 'watch:errors.badId')
  const auction = await getAuctionById(engine, auctionId)
  if (!auction) throw new DomainError(404, 'watch:errors.notFound')
  if (watching && auction.status === 'finished') throw new DomainError(409, 'watch:errors.finished')
  // One INSERT … ON CONFLICT DO UPDATE: two toggles sent at once both succeed (an upsert's
  // read-then-create lets the second fail on the unique key). Stopping keeps a row saying so,
  // which a prebid on the auction does not override.
  await getPrisma().$executeRaw`
    INSERT INTO "Watch" ("userId", "auctionId", watching)
    VALUES (${userId}, ${auctionId}, ${watching})
    ON CONFLICT ("userId", "auctionId") DO UPDATE SET watching = EXCLUDED.watching`
  return watching
}

/** Of these auctions, the ones the person watches (a watch row or a prebid). */
export async function watchedAmong(userId: string, auctionIds: readonly string[]) {
  return (await cardMarks(userId, { watched: auctionIds })).watchedIds
}

/** The auctions a person watches: their watch rows, and their prebids they did not unwatch. */
const WATCHED = `SELECT "auctionId" FROM "Watch" WHERE "userId" = $1 AND watching
  UNION SELECT p."auctionId" FROM "Prebid" p WHERE p."userId" = $1 AND NOT EXISTS (
    SELECT 1 FROM "Watch" w WHERE w."userId" = $1 AND w."auctionId" = p."auctionId"
      AND NOT w.watching)`

/** Watchlist pages hold this many auctions. */
export const WATCHLIST_PAGE = 20
/** A finished auction stays on the list this long after its end. */
export const FINISHED_KEPT_MS = 24 * 60 * 60 * 1000

// The list's auctions: finished more than a day ago left out (app/utils/sql.server.ts).
const LISTED = `FROM (${WATCHED}) watched JOIN "Auction" a ON a.id = watched."auctionId"
  WHERE a.status <> 'finished' OR a."endTime" IS NULL OR a."endTime" > $2`
const WATCHLIST_COUNT_SQL = `SELECT count(*) AS total ${LISTED}`
// One page: live first, then upcoming by start, then finished, newest first.
const WATCHLIST_SQL = `SELECT a.id ${LISTED}
  ORDER BY CASE a.status WHEN 'live' THEN 0 WHEN 'upcoming' THEN 1 ELSE 2 END,
    CASE WHEN a.status = 'finished' THEN NULL ELSE a."startTime" END ASC,
    a."endTime" DESC NULLS LAST, a.id
  LIMIT $3 OFFSET $4`

export type WatchlistPage = {
  auctions: AuctionView[]
  page: number
  totalPages: number
  total: number
}

/** A page (from 1) of the person's watchlist; a page past the last is the last. */
export async function getWatchlist(
  engine: Engine,
  userId: string,
  page = 1,
  now = new Date(),
): Promise<WatchlistPage> {
  const keptSince = new Date(now.getTime() - FINISHED_KEPT_MS)
  const [counted] = await readRows<{ total: string }>('watchlist-count', WATCHLIST_COUNT_SQL, [
    userId,
    keptSince,
  ])
  const total = Number(counted?.total ?? 0)
  const { current, totalPages, skip, take } = pageOf(total, Math.floor(page), WATCHLIST_PAGE)
  const rows =
    total === 0
      ? []
      : await readRows<{ id: string }>('watchlist-page', WATCHLIST_SQL, [
          userId,
          keptSince,
          take,
          skip,
        ])
  const views = await getAuctionsByIds(
    engine,
    rows.map((row) => row.id),
  )
  const byId = new Map(views.map((view) => [view.id, view]))
  return {
    auctions: rows.flatMap((row) => byId.get(row.id) ?? []),
    page: current,
    totalPages,
    total,
  }
}

const WATCHED_OPEN_SQL = `SELECT a.id, a.title, a.slug, a.status::text AS status
  FROM (${WATCHED}) watched JOIN "Auction" a ON a.id = watched."auctionId"
  WHERE a.status IN ('live', 'upcoming')
  ORDER BY CASE a.status WHEN 'live' THEN 0 ELSE 1 END, a."startTime", a.id
  LIMIT $2`

export type WatchedAuction = {
  id: string
  title: string
  slug: string
  status: 'live' | 'upcoming'
}

/** At most this many for the bot: a Telegram message holds 4096 characters. */
const BOT_WATCHLIST_LIMIT = 20

/**
 * What the Telegram bot's /watchlist lists (app/services/telegram/bot.server.ts): the person's
 * live and upcoming watched auctions, live first, then by start (the site's list's rule).
 */
export async function watchedAuctions(userId: string): Promise<WatchedAuction[]> {
  return readRows<WatchedAuction>('watched-open', WATCHED_OPEN_SQL, [userId, BOT_WATCHLIST_LIMIT])
}

const WATCHERS_SQL = `SELECT "userId" FROM "Watch" WHERE "auctionId" = $1 AND watching
  UNION SELECT p."userId" FROM "Prebid" p WHERE p."auctionId" = $1 AND NOT EXISTS (
    SELECT 1 FROM "Watch" w WHERE w."auctionId" = $1 AND w."userId" = p."userId"
      AND NOT w.watching)`

/**
 * The people who watch an auction, prebidders who did not unwatch it included (the alerts'
 * audience), as user ids.
 */
export async function watchersOf(auctionId: string): Promise<string[]> {
  const rows = await readRows<{ userId: string }>('auction-watchers', WATCHERS_SQL, [auctionId])
  return rows.map((row) => row.userId)
}
