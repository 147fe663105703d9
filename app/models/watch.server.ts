import type { Engine } from '../../engine/index.ts'
import { getAuctionById, getAuctionsByIds, type AuctionView } from '~/models/auction-live.server.ts'
import { cardMarks } from '~/models/prebids.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import { readRows } from '~/utils/sql.server.ts'
import { DomainError } from '~/utils/domain-error.ts'

// The watchlist (docs/rules.md#watchlist): what a person watches, for the pages, the JSON API
// and the alerts. A prebid counts as watching without a row of its own.

export const WATCH_NS = 'watch'

/** An auction id as the site makes them (cuid) or as tests name them: anything else is malformed. */
const AUCTION_ID = /^[A-Za-z0-9_-]{1,64}$/

/**
 * Starts (`watching` true) or stops watching an auction; both idempotent. Refusals: 400 a
 * malformed id, 404 an unknown auction, 409 watching a finished one (stopping is always allowed:
 * a finished auction stays on the list until the person removes it).
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
  const prisma = getPrisma()
  if (!watching) {
    await prisma.watch.deleteMany({ where: { userId, auctionId } })
    return false
  }
  if (auction.status === 'finished') throw new DomainError(409, 'watch:errors.finished')
  // One INSERT … ON CONFLICT DO NOTHING: two watches sent at once both succeed (an upsert's
  // read-then-create lets the second fail on the unique key).
  await prisma.watch.createMany({ data: [{ userId, auctionId }], skipDuplicates: true })
  return true
}

/** Of these auctions, the ones the person watches (a watch row or a prebid). */
export async function watchedAmong(userId: string, auctionIds: readonly string[]) {
  return (await cardMarks(userId, { watched: auctionIds })).watchedIds
}

// Watches and prebids in one plain statement (app/utils/sql.server.ts).
const WATCHED_IDS_SQL = `SELECT "auctionId" FROM "Watch" WHERE "userId" = $1
  UNION SELECT "auctionId" FROM "Prebid" WHERE "userId" = $1`

/** The person's watched auctions: live first, then upcoming by start, then finished, newest first. */

export async function getWatchlist(engine: Engine, userId: string): Promise<AuctionView[]> {
  const rows = await readRows<{ auctionId: string }>('watched-ids', WATCHED_IDS_SQL, [userId])
  const ids = [...new Set(rows.map((row) => row.auctionId))]
  const order = { live: 0, upcoming: 1, finished: 2 } as const
  return (await getAuctionsByIds(engine, ids)).sort(
    (a, b) =>
      order[a.status] - order[b.status] ||
      (a.status === 'finished'
        ? (b.endTime ?? '').localeCompare(a.endTime ?? '')
        : a.startTime.localeCompare(b.startTime)) ||
      a.id.localeCompare(b.id),
  )
}

/**
 * The people who watch an auction, prebidders included (the alerts' audience), as user ids.
 */
export async function watchersOf(auctionId: string): Promise<string[]> {
  const prisma = getPrisma()
  const [watches, prebids] = await Promise.all([
    prisma.watch.findMany({ where: { auctionId }, select: { userId: true } }),
    prisma.prebid.findMany({ where: { auctionId }, select: { userId: true } }),
  ])
  return [...new Set([...watches, ...prebids].map((row) => row.userId))]
}
