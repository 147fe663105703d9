import { readRows } from '~/utils/sql.server.ts'

/** Which of these auctions the user already holds a prebid on (buttons are disabled there). */
export async function getPrebidAuctionIds(
  userId: string | undefined,
  auctionIds: string[],
): Promise<string[]> {
  if (!userId || auctionIds.length === 0) return []
  // Plain SQL: signed-in home and list pages read this on every view (app/utils/sql.server.ts).
  const rows = await readRows<{ auctionId: string }>(
    'prebid-auction-ids',
    'SELECT "auctionId" FROM "Prebid" WHERE "userId" = $1 AND "auctionId" = ANY($2::text[])',
    [userId, auctionIds],
  )
  return rows.map((row) => row.auctionId)
}

/** The prebids a person holds on the auctions of a few lists of cards. */
export function cardPrebidIds(user: { id: string } | null, ...lists: Array<Array<{ id: string }>>) {
  return getPrebidAuctionIds(
    user?.id,
    lists.flatMap((list) => list.map((card) => card.id)),
  )
}
