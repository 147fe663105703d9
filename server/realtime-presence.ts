import type { Redis } from 'ioredis'
import { log } from '../app/services/logger.server.ts'
import { markAbsent, markPresent, PRESENCE_TTL_MS } from '../app/services/alerts/presence.server.ts'

// The sockets of this instance that have an auction's own page open, kept in Redis for the
// alert producers (app/services/alerts/presence.server.ts) and renewed while they stay.

type Visit = { socketId: string; userId: string; auctionId: string }

export function pagePresence(redis: Redis, prefix: string) {
  const visits = new Map<string, Visit>()
  const id = (visit: Visit) => `${visit.socketId}|${visit.auctionId}`
  const failed = (error: unknown) =>
    log.warn('page presence not saved', {
      error: error instanceof Error ? error.message : String(error),
    })
  const renew = setInterval(
    () => void markPresent(redis, prefix, [...visits.values()]).catch(failed),
    PRESENCE_TTL_MS / 3,
  )
  renew.unref()
  return {
    here(visit: Visit) {
      visits.set(id(visit), visit)
      void markPresent(redis, prefix, [visit]).catch(failed)
    },
    gone(visit: Visit) {
      if (!visits.delete(id(visit))) return
      void markAbsent(redis, prefix, visit).catch(failed)
    },
    /** Every page the socket had open is closed. */
    socketGone(socketId: string) {
      for (const visit of [...visits.values()]) if (visit.socketId === socketId) this.gone(visit)
    },
    close() {
      clearInterval(renew)
    },
  }
}
