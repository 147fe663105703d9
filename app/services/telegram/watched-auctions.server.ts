import { watchedOpen } from '~/models/watch.server.ts'

// What the bot's /watchlist lists: the live and upcoming auctions of the person's watchlist
// (docs/rules.md#watchlist; app/models/watch.server.ts), by the same rule as the site's list.

export type WatchedAuction = { title: string; slug: string; status: 'live' | 'upcoming' }

/** At most this many, live first, then soonest: a Telegram message holds 4096 characters. */
const LIMIT = 20

export async function watchedAuctions(userId: string): Promise<WatchedAuction[]> {
  return watchedOpen(userId, LIMIT)
}
