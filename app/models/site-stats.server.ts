import { getPrisma } from '~/utils/db.server.ts'

// The footer's stats strip shows real figures (docs/decisions/006-footer-stats.md), counted at
// most once a minute per process.

export type SiteStats = {
  users: number
  finishedAuctions: number
  bids: number
  /** Average saving of won auctions against retail, whole percent; null before the first win. */
  averageSavingPercent: number | null
}

const TTL_MS = 60_000
let cache: { value: SiteStats; expires: number } | undefined

export async function getSiteStats(): Promise<SiteStats | null> {
  if (cache && cache.expires > Date.now()) return cache.value
  try {
    const prisma = getPrisma()
    const [users, finishedAuctions, bids, saving] = await Promise.all([
      prisma.user.count(),
      prisma.auction.count({ where: { status: 'finished' } }),
      prisma.bid.count(),
      prisma.$queryRaw<Array<{ avg: number | null }>>`
        SELECT AVG(1 - "finalPrice"::float8 / NULLIF("retailPrice", 0))::float8 AS avg
        FROM "Auction"
        WHERE status = 'finished' AND "winnerId" IS NOT NULL AND "finalPrice" IS NOT NULL`,
    ])
    const avg = saving[0]?.avg
    const value: SiteStats = {
      users,
      finishedAuctions,
      bids,
      averageSavingPercent: avg == null ? null : Math.round(avg * 100),
    }
    cache = { value, expires: Date.now() + TTL_MS }
    return value
  } catch {
    return cache?.value ?? null
  }
}
