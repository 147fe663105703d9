import type { PrismaClient } from '../prisma/generated/client.ts'
import type { Engine } from './engine.ts'
import { creditOwedPackageOrders } from './package-orders.ts'
import type { Logger } from './types.ts'

// Won items on their way to their owners (docs/decisions/016-winner-orders.md):
// a finished auction's human winner gets an order to pay within 48 hours of the end; an order
// left unpaid expires and the item passes to the previous participant at their own last bid.
// A bid-package auction's orders carry the package's bids, credited once paid
// (engine/package-orders.ts, docs/decisions/077-bid-package-orders-credit-bids.md).
// Run by the lease holder only, but every step is also safe with two instances at once: orders
// are unique per (auction, user, kind) and an expiry is a conditional update.

const HOUR_MS = 60 * 60 * 1000
// Two rules that happen to be equal, kept side by side (docs/decisions/016-winner-orders.md,
// 017-buy-it-now.md): an order's time to pay runs from whenever the order is made, the chance
// to buy an item one did not win runs from the auction's end only.
/**
 * How long an order has to be paid: a win from the end, a passed-on win from the expiry that
 * passed it on, a Buy It Now order from when it is made.
 */
export const PAYMENT_WINDOW_MS = 48 * HOUR_MS
/** How long after the end a participant who did not win may still buy the item (Buy It Now). */
export const BUY_NOW_WINDOW_MS = 48 * HOUR_MS
/** Auctions that ended longer ago than this get no winner order: they predate orders. */
export const WINNER_ORDER_LOOKBACK_MS = 14 * 24 * 60 * 60 * 1000
const INTERVAL_MS = 20_000
/** The finish reaches Postgres through the outbox a moment after the engine's event. */
const AFTER_FINISH_MS = 2_000
const BATCH = 200

type Clock = () => Date

function isUniqueViolation(error: unknown) {
  return (error as { code?: string } | null)?.code === 'P2002'
}

/** Creates the win order of every recently finished auction with a human winner and none yet. */
export async function createWinnerOrders(prisma: PrismaClient, now: Date): Promise<number> {
  const auctions = await prisma.auction.findMany({
    where: {
      status: 'finished',
      winnerId: { not: null },
      finalPrice: { not: null },
      endTime: { gte: new Date(now.getTime() - WINNER_ORDER_LOOKBACK_MS) },
      orders: { none: { kind: 'win' } },
    },
    select: {
      id: true,
      winnerId: true,
      finalPrice: true,
      endTime: true,
      isBidPackage: true,
      packageBids: true,
    },
    orderBy: { endTime: 'asc' },
    take: BATCH,
  })
  let created = 0
  for (const auction of auctions) {
    const result = await prisma.order.createMany({
      data: {
        auctionId: auction.id,
        userId: auction.winnerId!,
        kind: 'win',
        rank: 1,
        price: auction.finalPrice!,
        bids: auction.isBidPackage ? (auction.packageBids ?? 0) : 0,
        expiresAt: new Date(auction.endTime!.getTime() + PAYMENT_WINDOW_MS),
      },
      skipDuplicates: true,
    })
    created += result.count
  }
  return created
}

/**
 * The participant the item passes to after `holders` (everyone who already had a win order on
 * the auction): the human with the newest last bid among those left, at that bid's amount.
 */
export async function nextParticipant(
  prisma: PrismaClient,
  auctionId: string,
  holders: string[],
): Promise<{ userId: string; price: number } | null> {
  const rows = await prisma.$queryRaw<Array<{ userId: string; amount: number }>>`
    SELECT "userId", amount FROM (
      SELECT DISTINCT ON (b."userId") b."userId", b.amount, b."createdAt"
        FROM "Bid" b
       WHERE b."auctionId" = ${auctionId}
         AND b."userId" IS NOT NULL
         AND NOT b."isBot"
         AND NOT (b."userId" = ANY(${holders}::text[]))
       ORDER BY b."userId", b."createdAt" DESC, b.amount DESC
    ) last_bids
    ORDER BY "createdAt" DESC, amount DESC
    LIMIT 1`
  const best = rows[0] ? { userId: rows[0].userId, price: Number(rows[0].amount) } : undefined
  return best ?? null
}

/**
 * Expires unpaid orders past their deadline. An expired win order passes the item to the
 * previous participant (rank + 1, a fresh 48 hours); with nobody left the item stays with the
 * house. A Buy It Now order just expires.
 */
export async function expireOrders(
  prisma: PrismaClient,
  now: Date,
): Promise<{ expired: number; passed: number }> {
  const due = await prisma.order.findMany({
    where: { status: 'awaiting_payment', expiresAt: { lte: now } },
    select: { id: true, auctionId: true, kind: true, rank: true, bids: true },
    orderBy: { expiresAt: 'asc' },
    take: BATCH,
  })
  let expired = 0
  let passed = 0
  for (const order of due) {
    try {
      const outcome = await prisma.$transaction(async (tx) => {
        const changed = await tx.order.updateMany({
          where: { id: order.id, status: 'awaiting_payment', expiresAt: { lte: now } },
          data: { status: 'expired' },
        })
        // Paid, cancelled or expired by another instance meanwhile.
        if (changed.count === 0) return null
        if (order.kind !== 'win') return { passed: false }
        const holders = await tx.order.findMany({
          where: { auctionId: order.auctionId, kind: 'win' },
          select: { userId: true, rank: true },
        })
        const next = await nextParticipant(
          tx as unknown as PrismaClient,
          order.auctionId,
          holders.map((holder) => holder.userId),
        )
        if (!next) return { passed: false }
        await tx.order.create({
          data: {
            auctionId: order.auctionId,
            userId: next.userId,
            kind: 'win',
            rank: Math.max(order.rank, ...holders.map((holder) => holder.rank)) + 1,
            price: next.price,
            // A package passes on whole: the runner-up pays their last bid for the same bids.
            bids: order.bids,
            expiresAt: new Date(now.getTime() + PAYMENT_WINDOW_MS),
          },
        })
        return { passed: true }
      })
      if (!outcome) continue
      expired += 1
      if (outcome.passed) passed += 1
    } catch (error) {
      if (!isUniqueViolation(error)) throw error
    }
  }
  return { expired, passed }
}

/**
 * The periodic runner: every 20 s, and shortly after an auction finishes. Besides the orders it
 * credits any paid bid-package order whose bids are still owed.
 */
export class OrderWorker {
  private interval: NodeJS.Timeout | undefined
  private soonTimer: NodeJS.Timeout | undefined
  private busy = false
  private readonly prisma: PrismaClient
  private readonly log: Logger

  constructor(
    private readonly engine: Engine,
    private readonly now: Clock = () => new Date(),
  ) {
    this.prisma = engine.prisma
    this.log = engine.log
  }

  start() {
    if (this.interval) return
    this.interval = setInterval(() => void this.tick(), INTERVAL_MS)
    void this.tick()
  }

  stop() {
    clearInterval(this.interval)
    clearTimeout(this.soonTimer)
    this.interval = undefined
    this.soonTimer = undefined
  }

  /** An auction just finished: its winner's order appears without waiting for the next tick. */
  soon() {
    if (!this.interval || this.soonTimer) return
    this.soonTimer = setTimeout(() => {
      this.soonTimer = undefined
      void this.tick()
    }, AFTER_FINISH_MS)
  }

  async tick() {
    if (this.busy) return
    this.busy = true
    try {
      const created = await createWinnerOrders(this.prisma, this.now())
      const { expired, passed } = await expireOrders(this.prisma, this.now())
      const credited = await creditOwedPackageOrders(this.engine)
      if (created || expired || credited)
        this.log.info('orders updated', { created, expired, passedOn: passed, credited })
    } catch (error) {
      this.log.warn('order tick failed', { error: String(error) })
    } finally {
      this.busy = false
    }
  }
}
