import { getPrisma } from '~/utils/db.server.ts'

/** Which of these auctions the user already holds a prebid on (buttons are disabled there). */
export async function getPrebidAuctionIds(
  userId: string | undefined,
  auctionIds: string[],
): Promise<string[]> {
  if (!userId || auctionIds.length === 0) return []
  const rows = await getPrisma().prebid.findMany({
    where: { userId, auctionId: { in: auctionIds } },
    select: { auctionId: true },
  })
  return rows.map((row) => row.auctionId)
}
