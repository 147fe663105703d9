import { getPrisma } from '~/utils/db.server.ts'

// What the bot's /watchlist lists. The one place that decides it: until the site has a
// watchlist (docs/rules.md#watchlist), the live and upcoming auctions the person has bid or
// prebid on (a prebid counts as watching); once it has one, this reads it instead.

export type WatchedAuction = { title: string; slug: string; status: 'live' | 'upcoming' }

/** At most this many, soonest first: a Telegram message holds 4096 characters. */
const LIMIT = 20

export async function watchedAuctions(userId: string): Promise<WatchedAuction[]> {
  const auctions = await getPrisma().auction.findMany({
    where: {
      status: { in: ['live', 'upcoming'] },
      OR: [{ bids: { some: { userId } } }, { prebids: { some: { userId } } }],
    },
    orderBy: [{ status: 'asc' }, { startTime: 'asc' }],
    take: LIMIT,
    select: { title: true, slug: true, status: true },
  })
  return auctions.map((a) => ({ ...a, status: a.status === 'live' ? 'live' : 'upcoming' }))
}
