import { followLease, type Engine } from '../../../engine/index.ts'
import { watchersOf } from '~/models/watch.server.ts'
import {
  enqueueAlerts,
  type AlertRequest,
  type AlertSink,
} from '~/services/alerts/enqueue.server.ts'
import { pruneSettled } from '~/services/alerts/deliveries.server.ts'
import { requeuePending } from '~/services/alerts/recovery.server.ts'
import { errorFields, log } from '~/utils/logger.server.ts'
import { getPrisma } from '~/utils/db.server.ts'

// The alerts that come from the clock (docs/rules.md#alerts): an auction someone watches
// starts in 5 minutes; an order lapses in 24 hours or in 2 hours; a won item passed to a
// runner-up (their order of rank 2 or more, made by engine/orders.ts when the one before did
// not pay) waits for them to pay: they are told once on every channel they can be reached on
// (each round's repeat is the same alert key, recorded once; a channel linked while the offer
// is open is told then). Run by the engine's lease
// holder; each alert's key keeps a second instance's or a second round's repeat out. The lease
// holder also runs the recovery pass (app/services/alerts/recovery.server.ts) when it takes the
// lease and every minute: the pending alerts Redis lost are queued again; and every hour it
// deletes the records of alerts done with long ago (pruneSettled).

const MINUTE_MS = 60_000
const HOUR_MS = 60 * MINUTE_MS
export const STARTS_SOON_MS = 5 * MINUTE_MS
const EVERY_MS = 20_000
const RECOVER_EVERY_MS = 60_000
const PRUNE_EVERY_MS = 60 * MINUTE_MS

/** The clock's alerts due at `now`. */
export async function dueAlerts(now: Date): Promise<AlertRequest[]> {
  const prisma = getPrisma()
  const soon = new Date(now.getTime() + STARTS_SOON_MS)
  const [starting, orders, offers] = await Promise.all([
    prisma.auction.findMany({
      where: { status: 'upcoming', startTime: { gt: now, lte: soon } },
      select: { id: true, startTime: true },
      take: 200,
    }),
    prisma.order.findMany({
      where: {
        status: 'awaiting_payment',
        expiresAt: { gt: now, lte: new Date(now.getTime() + 24 * HOUR_MS) },
      },
      select: { id: true, userId: true, auctionId: true, expiresAt: true },
      take: 500,
    }),
    prisma.order.findMany({
      where: {
        status: 'awaiting_payment',
        rank: { gt: 1 },
        expiresAt: { gt: now },
      },
      select: { id: true, userId: true, auctionId: true, expiresAt: true },
      take: 500,
    }),
  ])
  const alerts: AlertRequest[] = []
  for (const auction of starting) {
    for (const userId of await watchersOf(auction.id))
      alerts.push({
        userId,
        kind: 'startsSoon',
        key: `startsSoon:${auction.id}`,
        auctionId: auction.id,
        expiresAt: auction.startTime.getTime(),
      })
  }
  for (const order of offers)
    alerts.push({
      userId: order.userId,
      kind: 'offered',
      key: `offered:${order.id}`,
      auctionId: order.auctionId,
      orderId: order.id,
      expiresAt: order.expiresAt.getTime(),
    })
  for (const order of orders) {
    const left = order.expiresAt.getTime() - now.getTime()
    const kind = left <= 2 * HOUR_MS ? 'orderLapses2h' : 'orderLapses24h'
    alerts.push({
      userId: order.userId,
      kind,
      key: `${kind}:${order.id}`,
      auctionId: order.auctionId,
      orderId: order.id,
      expiresAt: order.expiresAt.getTime(),
    })
  }
  return alerts
}

export class AlertScheduler {
  private interval: NodeJS.Timeout | undefined
  private busy = false
  private recoveredAt = 0
  private prunedAt = 0

  constructor(private readonly sink?: AlertSink) {}

  start() {
    if (this.interval) return
    this.recoveredAt = 0
    this.prunedAt = 0
    this.interval = setInterval(() => void this.tick(), EVERY_MS)
    this.interval.unref()
    void this.tick()
  }

  stop() {
    clearInterval(this.interval)
    this.interval = undefined
  }

  /**
   * One round: the alerts due, then the recovery pass when its minute came and the pruning when
   * its hour came; the number queued.
   */
  async tick(now = new Date()) {
    if (this.busy) return 0
    this.busy = true
    let queued = 0
    try {
      queued += await enqueueAlerts(await dueAlerts(now), this.sink)
    } catch (error) {
      log.warn('alert schedule failed', errorFields(error))
    }
    try {
      if (now.getTime() - this.recoveredAt >= RECOVER_EVERY_MS) {
        const requeued = await requeuePending(this.sink)
        this.recoveredAt = now.getTime()
        if (requeued > 0) log.info('pending alerts queued again', { count: requeued })
        queued += requeued
      }
    } catch (error) {
      log.warn('alert recovery failed', errorFields(error))
    }
    try {
      if (now.getTime() - this.prunedAt >= PRUNE_EVERY_MS) {
        const deleted = await pruneSettled(now)
        this.prunedAt = now.getTime()
        if (deleted > 0) log.info('old alert records deleted', { count: deleted })
      }
    } catch (error) {
      log.warn('alert records pruning failed', errorFields(error))
    } finally {
      this.busy = false
    }
    return queued
  }

  followLease(engine: Engine) {
    followLease(engine, this)
    return this
  }
}
