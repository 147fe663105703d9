import { getPrisma } from '~/utils/db.server.ts'

// What the bot's /watchlist lists: the live and upcoming auctions of the person's watchlist
// (docs/rules.md#watchlist; app/models/watch.server.ts), a prebid counting as watching.

export type WatchedAuction = { title: string; slug: string; status: 'live' | 'upcoming' }

/** At most this many, soonest first: a Telegram message holds 4096 characters. */
const LIMIT = 20

export async function watchedAuctions(userId: string): Promise<WatchedAuction[]> {
  const auctions = await getPrisma().auction.findMany({
    where: {
      status: { in: ['live', 'upcoming'] },
      OR: [{ watches: { some: { userId } } }, { prebids: { some: { userId } } }],
    },
    orderBy: [{ status: 'asc' }, { startTime: 'asc' }],
    take: LIMIT,
    select: { title: true, slug: true, status: true },
  })
  return auctions.map((a) => ({ ...a, status: a.status === 'live' ? 'live' : 'upcoming' }))
}
