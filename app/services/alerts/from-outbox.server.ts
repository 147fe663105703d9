import { keysOf, type OutboxEntry } from '../../../engine/index.ts'
import { watchersOf } from '~/models/watch.server.ts'
import {
  enqueueAlerts,
  type AlertRequest,
  type AlertSink,
} from '~/services/alerts/enqueue.server.ts'
import { isPresent } from '~/services/alerts/presence.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import type { Redis } from 'ioredis'

// The engine's events as alerts (docs/rules.md#alerts), read from a batch of outbox entries
// once Postgres holds it (engine/outbox/worker.ts calls back after its commit): "started" to the
// auction's watchers, "outbid" to the previous human leader who watches it (unless their own
// auto-bidder still holds bids there and will bid back for them), "won" to a person who won. A batch replayed after a crash gives the same keys, so nothing is sent twice; the
// outbox gives a batch again when its alerts were not recorded (engine/outbox/worker.ts).

/** An outbid or a start means nothing after this long (quiet hours drop it). */
export const STALE_AFTER_MS = 10 * 60_000

type Leader = { userId: string | null; isBot: boolean }

/** Who led the auction before this batch's bids (the newest bid Postgres had before them). */
async function leaderBefore(auctionId: string, batchIds: string[]): Promise<Leader | null> {
  return getPrisma().bid.findFirst({
    where: { auctionId, OR: [{ eventId: null }, { eventId: { notIn: batchIds } }] },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: { userId: true, isBot: true },
  })
}

export async function alertsFromEntries(
  entries: readonly OutboxEntry[],
  presence: Presence,
): Promise<AlertRequest[]> {
  const alerts: AlertRequest[] = []
  const ids = entries.map((entry) => entry.id)
  const leaders = new Map<string, Leader | null>()
  const outbid = new Map<string, AlertRequest & { auctionId: string }>()
  for (const { fields: f } of entries) {
    const at = Number(f.at) || Date.now()
    const auctionId = f.auction
    if (!auctionId) continue
    if (f.type === 'start') {
      for (const userId of await watchersOf(auctionId))
        alerts.push({
          userId,
          kind: 'started',
          key: `started:${auctionId}`,
          auctionId,
          expiresAt: at + STALE_AFTER_MS,
        })
    } else if (f.type === 'finish' && f.winner && f.bot !== '1') {
      alerts.push({ userId: f.winner, kind: 'won', key: `won:${auctionId}`, auctionId })
    } else if (f.type === 'bid' && f.bidder) {
      if (!leaders.has(auctionId)) leaders.set(auctionId, await leaderBefore(auctionId, ids))
      const previous = leaders.get(auctionId)
      const isBot = f.bot === '1'
      leaders.set(auctionId, { userId: isBot ? null : f.bidder, isBot })
      if (!previous?.userId || previous.isBot || previous.userId === f.bidder) continue
      const minute = Math.floor(at / 60_000)
      const key = `outbid:${auctionId}:${minute}`
      outbid.set(`${previous.userId}|${key}`, {
        userId: previous.userId,
        kind: 'outbid',
        key,
        auctionId,
        expiresAt: at + STALE_AFTER_MS,
      })
    }
  }
  // Only watchers; none while their page on the auction is open, or while their own
  // auto-bidder still holds bids there (it bids back for them: not news to tell).
  const watchers = new Map<string, Set<string>>()
  for (const alert of outbid.values()) {
    let watching = watchers.get(alert.auctionId)
    if (!watching)
      watchers.set(alert.auctionId, (watching = new Set(await watchersOf(alert.auctionId))))
    if (!watching.has(alert.userId)) continue
    if (await isPresent(presence.redis, presence.prefix, alert.userId, alert.auctionId)) continue
    if (await autoBidding(presence, alert.userId, alert.auctionId)) continue
    alerts.push(alert)
  }
  return alerts
}

/**
 * Whether the person's auto-bidder on the auction still has bids left (the engine's budget,
 * engine/auto-bids.ts `getAutoBid`): it bids for them again when the timer runs low.
 */
async function autoBidding(presence: Presence, userId: string, auctionId: string) {
  const left = await presence.redis.hget(keysOf(presence.prefix).autoBids(auctionId), `r:${userId}`)
  return Number(left ?? 0) > 0
}

type Presence = { redis: Redis; prefix: string }

/**
 * The outbox's listener (`OutboxWorker.onWritten`): a written batch's alerts, recorded in
 * Postgres and queued. It throws when they were not recorded, and the batch is given again.
 */
export function alertsOfBatches(presence: Presence, sink?: AlertSink) {
  return async (entries: readonly OutboxEntry[]) =>
    enqueueAlerts(await alertsFromEntries(entries, presence), sink)
}
