import type { PrismaClient } from '../prisma/generated/client.ts'

// Bids checked against the end of their auctions (`npm run balances`, docs/operations.md): a
// finished auction took no bid after its end, and none above its final price. Conclusive once
// the outbox lag is 0 (a bid's row carries the time the engine took it, however late the
// outbox writes it).

export type LateBid = {
  bidId: string
  auctionId: string
  /** The bid's time and price, and the auction's end and final price. */
  at: Date
  amount: number
  endTime: Date | null
  finalPrice: number | null
}

export async function auditLateBids(prisma: PrismaClient): Promise<LateBid[]> {
  return prisma.$queryRaw<LateBid[]>`
    SELECT b.id AS "bidId", b."auctionId", b."createdAt" AS at, b.amount,
      a."endTime", a."finalPrice"
    FROM "Bid" b JOIN "Auction" a ON a.id = b."auctionId"
    WHERE a.status = 'finished'
      AND (a."endTime" IS NULL OR b."createdAt" > a."endTime" OR b.amount > a."finalPrice")
    ORDER BY b."createdAt"`
}
