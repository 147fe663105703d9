import { BUY_NOW_WINDOW_MS, PAYMENT_WINDOW_MS } from '../../engine/index.ts'
import type { Prisma } from '~/utils/db.server.ts'
import { getPrisma, isUniqueViolation } from '~/utils/db.server.ts'
import { DomainError } from '~/utils/domain-error.ts'
import { readRows } from '~/utils/sql.server.ts'
import { bidsSpentOn, buyNowPrice } from '~/models/auction-cost.server.ts'
import { toMajor } from '~/utils/money.ts'
import { DELIVERY_FEES, type DeliveryInput } from '~/validation/order.ts'

// Orders of won and bought items (docs/decisions/016-winner-orders.md and
// 017-buy-it-now.md). A person's queries are always scoped by their user id, so another
// person's order is "not found". Money in minor units; the API converts to som. A bid-package
// auction's order carries its `bids` and has no delivery step: once paid, its bids are
// credited and it is delivered (docs/decisions/077-bid-package-orders-credit-bids.md).

export const orderSelect = {
  id: true,
  kind: true,
  rank: true,
  price: true,
  bids: true,
  deliveryMethod: true,
  deliveryFee: true,
  address: true,
  phone: true,
  status: true,
  expiresAt: true,
  paidAt: true,
  shippedAt: true,
  deliveredAt: true,
  createdAt: true,
  auction: { select: { id: true, title: true, slug: true, displayId: true } },
} satisfies Prisma.OrderSelect

type OrderRow = Prisma.OrderGetPayload<{ select: typeof orderSelect }>

export function orderView(row: OrderRow, now: Date) {
  const open = row.status === 'awaiting_payment' && row.expiresAt > now
  return {
    ...row,
    expiresAt: row.expiresAt.toISOString(),
    paidAt: row.paidAt?.toISOString() ?? null,
    shippedAt: row.shippedAt?.toISOString() ?? null,
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    total: row.price + row.deliveryFee,
    /** Milliseconds left to pay, or null when the order is not awaiting payment any more. */
    msLeft: open ? row.expiresAt.getTime() - now.getTime() : null,
    /** Delivery can be chosen or changed, and the order paid. */
    payable: open,
  }
}
export type OrderView = ReturnType<typeof orderView>

// A person's orders with their auctions in one plain statement (app/utils/sql.server.ts): the
// profile shows them on every visit; through the ORM it was two (the orders, then the auctions).
const USER_ORDERS_SQL = `SELECT o.id, o.kind, o.rank, o.price, o.bids, o."deliveryMethod", o."deliveryFee",
    o.address, o.phone, o.status, o."expiresAt", o."paidAt", o."shippedAt", o."deliveredAt",
    o."createdAt",
    json_build_object('id', a.id, 'title', a.title, 'slug', a.slug, 'displayId', a."displayId")
      AS auction
  FROM "Order" o JOIN "Auction" a ON a.id = o."auctionId"
  WHERE o."userId" = $1 ORDER BY o."createdAt" DESC LIMIT 100`

export async function listUserOrders(userId: string, now = new Date()) {
  const rows = await readRows<OrderRow>('user-orders', USER_ORDERS_SQL, [userId])
  return rows.map((row) => orderView(row, now))
}

/**
 * Saves the owner's delivery choice while the order awaits payment. A choice that changes the
 * total cancels the order's pending checkouts (`failureReason = order_changed`): the next
 * checkout asks for the new total, and money an old one still brings in is held for an admin,
 * never applied short (docs/rules.md#winner-orders).
 */
export async function setDelivery(
  userId: string,
  orderId: string,
  input: DeliveryInput,
  now = new Date(),
) {
  const pickup = input.deliveryMethod === 'pickup'
  const fee = DELIVERY_FEES[input.deliveryMethod]
  const changed = await getPrisma().$transaction(async (tx) => {
    const before = await tx.order.findFirst({
      where: { id: orderId, userId },
      select: { deliveryFee: true, bids: true },
    })
    // Bids are credited, not delivered.
    if (before && before.bids > 0) throw new DomainError(409, 'errors.noDelivery')
    const updated = await tx.order.updateMany({
      where: { id: orderId, userId, status: 'awaiting_payment', expiresAt: { gt: now } },
      data: {
        deliveryMethod: input.deliveryMethod,
        deliveryFee: fee,
        // Pickup needs no address; a phone given anyway is kept for the office to call.
        address: pickup ? null : (input.address ?? null),
        phone: input.phone ?? null,
      },
    })
    if (updated.count > 0 && before && before.deliveryFee !== fee) {
      await tx.payment.updateMany({
        where: { orderId, status: 'pending' },
        data: { status: 'cancelled', failureReason: 'order_changed' },
      })
    }
    return updated.count > 0
  })
  if (!changed) {
    const exists = await getPrisma().order.count({ where: { id: orderId, userId } })
    throw exists
      ? new DomainError(409, 'errors.notPayable')
      : new DomainError(404, 'errors.notFound')
  }
  const row = await getPrisma().order.findFirstOrThrow({
    where: { id: orderId, userId },
    select: orderSelect,
  })
  return orderView(row, now)
}

export type BuyNowOffer =
  | {
      available: true
      price: number
      saving: number
      bidsSpent: number
      deadline: string
    }
  | { available: false; reason: string; deadline: string | null }

/**
 * Whether `userId` may buy the finished auction's item now and at what price: retail less
 * 15 som per bid or prebid they spent on it, never below 0 (docs/decisions/017-buy-it-now.md).
 */
export async function getBuyNowOffer(
  auctionId: string,
  /** Null for a visitor: the offer is then only announced (log in to see your price). */
  userId: string | null,
  now = new Date(),
): Promise<BuyNowOffer | null> {
  const prisma = getPrisma()
  const auction = await prisma.auction.findUnique({
    where: { id: auctionId },
    select: {
      status: true,
      endTime: true,
      retailPrice: true,
      isBidPackage: true,
      winnerId: true,
    },
  })
  if (!auction) return null
  if (auction.status !== 'finished' || !auction.endTime)
    return { available: false, reason: 'errors.notFinished', deadline: null }
  const deadline = new Date(auction.endTime.getTime() + BUY_NOW_WINDOW_MS)
  const refuse = (reason: string) =>
    ({ available: false, reason, deadline: deadline.toISOString() }) as const
  if (auction.isBidPackage) return refuse('errors.bidPackage')
  if (!userId) return refuse(now >= deadline ? 'errors.windowClosed' : 'errors.loginToBuy')
  if (auction.winnerId === userId) return refuse('errors.winner')
  const [spent, bought] = await Promise.all([
    bidsSpentOn(userId, [auctionId]),
    prisma.order.count({ where: { auctionId, userId, kind: 'buy_now' } }),
  ])
  const bidsSpent = spent.get(auctionId)?.bids ?? 0
  if (bidsSpent === 0) return refuse('errors.notParticipant')
  if (bought > 0) return refuse('errors.alreadyBought')
  if (now >= deadline) return refuse('errors.windowClosed')
  const price = buyNowPrice(auction.retailPrice, bidsSpent)
  return {
    available: true,
    price,
    saving: auction.retailPrice - price,
    bidsSpent,
    deadline: deadline.toISOString(),
  }
}

/** Creates the Buy It Now order (awaiting payment, 48 hours to pay) or says why not. */
export async function buyNow(auctionId: string, userId: string, now = new Date()) {
  if (!auctionId) throw new DomainError(404, 'errors.auctionNotFound')
  const offer = await getBuyNowOffer(auctionId, userId, now)
  if (!offer) throw new DomainError(404, 'errors.auctionNotFound')
  if (!offer.available)
    throw new DomainError(offer.reason === 'errors.alreadyBought' ? 409 : 403, offer.reason)
  try {
    const row = await getPrisma().order.create({
      data: {
        auctionId,
        userId,
        kind: 'buy_now',
        price: offer.price,
        expiresAt: new Date(now.getTime() + PAYMENT_WINDOW_MS),
      },
      select: orderSelect,
    })
    return orderView(row, now)
  } catch (error) {
    // Two clicks at once: the unique index lets one through.
    if (isUniqueViolation(error)) throw new DomainError(409, 'errors.alreadyBought')
    throw error
  }
}

/** The JSON API's shape of an order: money in som. */
export function orderJson(order: OrderView & { user?: { id: string; username: string } }) {
  return {
    id: order.id,
    auction: order.auction,
    ...(order.user ? { user: { id: order.user.id, username: order.user.username } } : {}),
    kind: order.kind,
    rank: order.rank,
    price: toMajor(order.price),
    /** A bid-package auction's order: the bids it credits once paid; 0 for an item. */
    bids: order.bids,
    deliveryMethod: order.deliveryMethod,
    deliveryFee: toMajor(order.deliveryFee),
    total: toMajor(order.total),
    address: order.address,
    phone: order.phone,
    status: order.status,
    expiresAt: order.expiresAt,
    paidAt: order.paidAt,
    shippedAt: order.shippedAt,
    deliveredAt: order.deliveredAt,
    createdAt: order.createdAt,
    payUrl:
      order.payable && (order.deliveryMethod || order.bids > 0) ? `/topup/order/${order.id}` : null,
  }
}
