import type { Prisma } from '~/utils/db.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import { DomainError } from '~/utils/domain-error.ts'
import { orderSelect, orderView } from '~/models/order.server.ts'
import { adminRefunded, type AdminRefund } from '~/models/payment-refund.server.ts'
import { adminTransitions, refundCandidate, type OrderStatusName } from '~/validation/order.ts'
import { pageOf } from '~/utils/paging.ts'

// Orders as the admin sees them (/admin/orders and /api/admin/orders): every person's, with the
// buyer and the money that reached each one (docs/decisions/016-winner-orders.md).

export const ADMIN_ORDERS_PER_PAGE = 20

const adminSelect = {
  ...orderSelect,
  user: { select: { id: true, username: true, firstName: true, lastName: true } },
  // The money that reached the order (docs/payments.md): what paid it, what is held, what was
  // refunded, and why.
  payments: {
    where: { status: { in: ['paid', 'held', 'refunded'] } },
    select: {
      id: true,
      status: true,
      amount: true,
      currency: true,
      failureReason: true,
      refundReason: true,
      refundedAt: true,
    },
    orderBy: { createdAt: 'asc' },
  },
} satisfies Prisma.OrderSelect
type AdminRow = Prisma.OrderGetPayload<{ select: typeof adminSelect }>

function adminView(row: AdminRow, now: Date) {
  return {
    ...orderView(row, now),
    user: row.user,
    payments: row.payments.map((payment) => ({
      ...payment,
      refundedAt: payment.refundedAt?.toISOString() ?? null,
    })),
  }
}

export async function listOrders({
  status,
  page = 1,
  perPage = ADMIN_ORDERS_PER_PAGE,
  now = new Date(),
}: {
  status?: OrderStatusName | null
  page?: number
  perPage?: number
  now?: Date
}) {
  const prisma = getPrisma()
  const where = status ? { status } : {}
  const total = await prisma.order.count({ where })
  const { current, totalPages, skip, take } = pageOf(total, page, perPage)
  const rows = await prisma.order.findMany({
    where,
    select: adminSelect,
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    skip,
    take,
  })
  return {
    orders: rows.map((row) => adminView(row, now)),
    total,
    page: current,
    totalPages,
  }
}
export type AdminOrderView = Awaited<ReturnType<typeof listOrders>>['orders'][number]

/**
 * Writes an admin's status change: only the forward moves of adminTransitions, and only while
 * the order is still as read. The order's bids (a bid package's) for the caller
 * (app/services/order-status.server.ts), which credits them once it is marked paid.
 */
export async function writeOrderStatus(id: string, status: OrderStatusName, now = new Date()) {
  const prisma = getPrisma()
  const order = await prisma.order.findUnique({
    where: { id },
    select: { status: true, bids: true },
  })
  if (!order) throw new DomainError(404, 'errors.notFound')
  if (!adminTransitions(order.status, order.bids).includes(status))
    throw new DomainError(409, 'admin-orders:errors.transition')
  const stamp =
    status === 'paid'
      ? { paidAt: now }
      : status === 'shipped'
        ? { shippedAt: now }
        : status === 'delivered'
          ? { deliveredAt: now }
          : {}
  const changed = await prisma.order.updateMany({
    where: { id, status: order.status },
    data: { status, ...stamp },
  })
  // Changed meanwhile (a payment, the expiry worker or another admin).
  if (changed.count === 0) throw new DomainError(409, 'admin-orders:errors.transition')
  return { bids: order.bids }
}

/** An order that exists, as the admin sees it (after a change). */
export async function readAdminOrder(id: string, now = new Date()) {
  const row = await getPrisma().order.findUniqueOrThrow({ where: { id }, select: adminSelect })
  return adminView(row, now)
}

/** One order as the admin page shows it (the refund dialog); null when there is none. */
export async function getAdminOrder(id: string, now = new Date()) {
  if (!id || id.length > 64) return null
  const row = await getPrisma().order.findUnique({ where: { id }, select: adminSelect })
  return row ? adminView(row, now) : null
}

/**
 * What the refund dialog names: the order's item and buyer and the amount a refund returns, or
 * the reason (an i18n key) it may not be refunded.
 */
export async function refundTarget(id: string) {
  const order = await getAdminOrder(id)
  const named = { title: order?.auction.title ?? null, username: order?.user.username ?? null }
  if (!order) return { ...named, amount: null, cancelOrder: false, refused: 'errors.notFound' }
  const candidate = refundCandidate(order.status, order.payments)
  if ('refused' in candidate)
    return { ...named, amount: null, cancelOrder: false, refused: candidate.refused }
  const { payment, cancelOrder } = candidate
  return { ...named, amount: payment.amount, cancelOrder, refused: null }
}

// --- refunds (app/services/payments/refund.server.ts) -----------------------------------

type Tx = Prisma.TransactionClient

const refundSelect = {
  id: true,
  provider: true,
  providerTxnId: true,
  amount: true,
  currency: true,
  status: true,
  failureReason: true,
} satisfies Prisma.PaymentSelect

export type RefundTarget = {
  orderId: string
  payment: Prisma.PaymentGetPayload<{ select: typeof refundSelect }>
  /** The payment paid the order: the order is cancelled with the refund. */
  cancelOrder: boolean
}

/**
 * Locks the order and finds the money of it to return: the payment that paid it, else money
 * that reached it without paying it (held, or paid too late). Refuses with 404 or 409 otherwise.
 */
export async function findRefundTarget(tx: Tx, orderId: string): Promise<RefundTarget> {
  const [order] = await tx.$queryRaw<{ status: string }[]>`
    SELECT status::text AS status FROM "Order" WHERE id = ${orderId} FOR UPDATE`
  if (!order) throw new DomainError(404, 'admin-orders:errors.notFound')
  const payments = await tx.payment.findMany({
    where: { orderId, status: { in: ['paid', 'held', 'refunded'] } },
    select: refundSelect,
    orderBy: { createdAt: 'asc' },
  })
  const candidate = refundCandidate(order.status, payments)
  if ('refused' in candidate) throw new DomainError(409, candidate.refused)
  return { orderId, ...candidate }
}

/** Records a refund the provider made: on the payment (admin, reason, its id) and the order. */
export async function recordRefund(tx: Tx, target: RefundTarget, refund: AdminRefund) {
  await tx.payment.update({ where: { id: target.payment.id }, data: adminRefunded(refund) })
  if (target.cancelOrder)
    await tx.order.update({ where: { id: target.orderId }, data: { status: 'cancelled' } })
}
