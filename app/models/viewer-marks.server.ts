import type { Engine } from '../../engine/index.ts'
import { getAuctionCosts } from '~/models/auction-cost.server.ts'
import { hasUserPrebid } from '~/models/auction-rows.server.ts'
import { getAutoBid } from '~/models/autobid.server.ts'
import { readRows } from '~/utils/sql.server.ts'

// What pages show of the person viewing them on each auction: their prebids and watches on the
// cards of the home, list and watchlist pages, their prebid and auto-bidder on an auction's page.

// Plain SQL: signed-in home, list and auction pages read this on every view
// (app/utils/sql.server.ts). A person's prebids and watch rows among the auctions a page shows,
// in one statement (a prebid counts as watching unless the person stopped watching that auction,
// docs/rules.md#watchlist).
const MARKS_SQL = `SELECT "auctionId", true AS "prebid", NULL::boolean AS "watching" FROM "Prebid"
  WHERE "userId" = $1 AND "auctionId" = ANY($2::text[])
  UNION ALL
  SELECT "auctionId", false, watching FROM "Watch"
  WHERE "userId" = $1 AND "auctionId" = ANY($2::text[])`

/**
 * Of `prebids`, the auctions the person holds a prebid on (their buttons are disabled); of
 * `watched`, the ones they watch (a watch, or a prebid they did not unwatch). Nothing for a
 * visitor.
 */
export async function cardMarks(
  userId: string | undefined,
  { prebids = [], watched = [] }: { prebids?: readonly string[]; watched?: readonly string[] },
): Promise<{ prebidIds: string[]; watchedIds: string[] }> {
  if (!userId || prebids.length + watched.length === 0) return { prebidIds: [], watchedIds: [] }
  const rows = await readRows<{ auctionId: string; prebid: boolean; watching: boolean | null }>(
    'card-marks-watching',
    MARKS_SQL,
    [userId, [...new Set([...prebids, ...watched])]],
  )
  const prebidSet = new Set(rows.filter((row) => row.prebid).map((row) => row.auctionId))
  const watchRows = new Map(
    rows.filter((row) => !row.prebid).map((row) => [row.auctionId, row.watching === true]),
  )
  return {
    prebidIds: prebids.filter((id) => prebidSet.has(id)),
    watchedIds: watched.filter((id) => watchRows.get(id) ?? prebidSet.has(id)),
  }
}

/** The ids of a few lists of cards. */
export const idsOf = (...lists: Array<Array<{ id: string }>>) =>
  lists.flatMap((list) => list.map((card) => card.id))

/**
 * What the auction page shows of the person viewing it: their prebid on it, their auto-bidder,
 * and what it has cost them so far (null when nothing: docs/decisions/083-what-an-auction-has-cost-you.md).
 */
export async function auctionViewerValues(
  engine: Engine,
  auction: { id: string; status: string },
  user: { id: string } | null,
) {
  const prebid =
    user && auction.status === 'upcoming'
      ? hasUserPrebid(auction.id, user.id).then(
          (found) => found || engine.hasPrebid(auction.id, user.id),
        )
      : Promise.resolve(false)
  const [hasPrebid, autoBid, cost] = await Promise.all([
    prebid,
    user && auction.status !== 'finished' ? getAutoBid(engine, auction.id, user.id) : null,
    // A prebid the outbox has not written yet counts, as its button already says it is held.
    user
      ? prebid.then(async (held) => {
          const costs = await getAuctionCosts(user.id, [auction.id], {
            pendingPrebidOn: held ? auction.id : null,
          })
          return costs[auction.id] ?? null
        })
      : null,
  ])
  return { hasPrebid, autoBid, cost }
}
