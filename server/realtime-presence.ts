import type { Redis } from 'ioredis'
import { log } from '../app/utils/logger.server.ts'
import { markAbsent, markPresent, PRESENCE_TTL_MS } from '../app/services/alerts/presence.server.ts'

// The sockets of this instance that have an auction's own page open, kept in Redis for the
// alert producers (app/services/alerts/presence.server.ts) and renewed while they stay.
// server/realtime.ts records a page only once its join passed the socket's limits and found the
// auction, and at most PAGES_PER_SOCKET of them per socket: what is kept here grows with the
// sockets, never with what one of them sends (docs/decisions/075-one-client-cannot-hurt-everyone.md).

type Visit = { socketId: string; userId: string; auctionId: string }

/** Auction pages one socket may have open at once: a tab shows one, a page change leaves it. */
export const PAGES_PER_SOCKET = 4
/** Visits renewed in one Redis MULTI (two commands each): a renewal never stalls Redis long. */
export const VISITS_PER_WRITE = 100

export function pagePresence(
  redis: Redis,
  prefix: string,
  { renewMs = PRESENCE_TTL_MS / 3 }: { renewMs?: number } = {},
) {
  /** Socket id -> its open pages, by auction id. */
  const sockets = new Map<string, Map<string, Visit>>()
  const failed = (error: unknown) =>
    log.warn('page presence not saved', {
      error: error instanceof Error ? error.message : String(error),
    })
  // Renewed in slices, one after the other; a renewal still running when the next is due lets
  // that one go (the entries last three renewals).
  let renewing = false
  async function renewAll() {
    if (renewing) return
    renewing = true
    try {
      const visits = [...sockets.values()].flatMap((pages) => [...pages.values()])
      for (let at = 0; at < visits.length; at += VISITS_PER_WRITE)
        await markPresent(redis, prefix, visits.slice(at, at + VISITS_PER_WRITE))
    } finally {
      renewing = false
    }
  }
  const renew = setInterval(() => void renewAll().catch(failed), renewMs)
  renew.unref()
  return {
    /** Records the page as open; false (nothing recorded) when the socket has too many open. */
    here(visit: Visit): boolean {
      const pages = sockets.get(visit.socketId) ?? new Map<string, Visit>()
      if (!pages.has(visit.auctionId) && pages.size >= PAGES_PER_SOCKET) return false
      pages.set(visit.auctionId, visit)
      sockets.set(visit.socketId, pages)
      void markPresent(redis, prefix, [visit]).catch(failed)
      return true
    },
    gone(visit: Visit) {
      const pages = sockets.get(visit.socketId)
      const open = pages?.get(visit.auctionId)
      if (!pages || !open) return
      pages.delete(visit.auctionId)
      if (pages.size === 0) sockets.delete(visit.socketId)
      void markAbsent(redis, prefix, open).catch(failed)
    },
    /** Every page the socket had open is closed. */
    socketGone(socketId: string) {
      for (const visit of [...(sockets.get(socketId)?.values() ?? [])]) this.gone(visit)
    },
    /** How many pages are counted open on this instance. */
    size: () => [...sockets.values()].reduce((sum, pages) => sum + pages.size, 0),
    close() {
      clearInterval(renew)
    },
  }
}
