import type { BidPackage } from '~/utils/bid-packages.ts'
import { getPrisma, type PaymentStatus } from '~/utils/db.server.ts'

// Payments: one row per checkout attempt, created `pending` before the payer leaves for the
// provider, settled by the provider's webhook (app/services/payments/webhook.server.ts).

export const CURRENCY = 'KGS'

export function createPackagePayment(userId: string, provider: string, pkg: BidPackage) {
  return getPrisma().payment.create({
    data: {
      userId,
      provider,
      purpose: 'package',
      packageId: pkg.id,
      bids: pkg.bids,
      amount: pkg.price,
      currency: CURRENCY,
    },
    select: { id: true, amount: true, currency: true },
  })
}

export function createOrderPayment(
  userId: string,
  provider: string,
  order: { id: string; total: number },
) {
  return getPrisma().payment.create({
    data: {
      userId,
      provider,
      purpose: 'order',
      orderId: order.id,
      amount: order.total,
      currency: CURRENCY,
    },
    select: { id: true, amount: true, currency: true },
  })
}

/** The provider's own id of a checkout, as its answer gave it (reconciliation asks by it). */
export async function recordProviderPaymentId(id: string, providerPaymentId: string) {
  await getPrisma().payment.update({ where: { id }, data: { providerPaymentId } })
}

const userPaymentSelect = {
  id: true,
  provider: true,
  purpose: true,
  packageId: true,
  bids: true,
  amount: true,
  currency: true,
  status: true,
  failureReason: true,
  orderId: true,
  order: { select: { auction: { select: { title: true } } } },
} as const

/** A payment as its owner sees it (result and sandbox pages); null for anyone else's. */
export async function getUserPayment(userId: string, id: string) {
  if (!id || id.length > 64) return null
  const payment = await getPrisma().payment.findFirst({
    where: { id, userId },
    select: userPaymentSelect,
  })
  if (!payment) return null
  const { order, ...rest } = payment
  return { ...rest, itemTitle: order?.auction.title ?? null }
}
export type UserPayment = NonNullable<Awaited<ReturnType<typeof getUserPayment>>>

/** The user's order with what the pay page shows; null when it is not theirs. */
export async function getUserOrder(userId: string, id: string) {
  if (!id || id.length > 64) return null
  const order = await getPrisma().order.findFirst({
    where: { id, userId },
    select: {
      id: true,
      price: true,
      bids: true,
      deliveryMethod: true,
      deliveryFee: true,
      status: true,
      expiresAt: true,
      auction: { select: { title: true } },
    },
  })
  if (!order) return null
  const { auction, ...rest } = order
  return { ...rest, title: auction.title, total: order.price + order.deliveryFee }
}
export type UserOrder = NonNullable<Awaited<ReturnType<typeof getUserOrder>>>

/**
 * Why an order cannot be paid now, or null when it can (docs/rules.md#winner-orders: 48 hours;
 * a bid package's order has no delivery to choose).
 */
export function orderNotPayable(
  order: Pick<UserOrder, 'status' | 'expiresAt' | 'deliveryMethod' | 'bids'>,
  now = new Date(),
): 'not_awaiting' | 'expired' | 'no_delivery' | null {
  if (order.status !== 'awaiting_payment') return 'not_awaiting'
  if (order.expiresAt.getTime() <= now.getTime()) return 'expired'
  if (!order.deliveryMethod && order.bids === 0) return 'no_delivery'
  return null
}

// --- the webhook's side --------------------------------------------------------------------

export function findPaymentForWebhook(provider: string, id: string) {
  return getPrisma().payment.findFirst({
    where: { id, provider },
    select: {
      id: true,
      userId: true,
      purpose: true,
      bids: true,
      orderId: true,
      amount: true,
      currency: true,
      status: true,
      providerTxnId: true,
      failureReason: true,
    },
  })
}
export type WebhookPayment = NonNullable<Awaited<ReturnType<typeof findPaymentForWebhook>>>

/** The other payment that already carries this provider transaction id, if any. */
export async function transactionOwner(provider: string, transactionId: string, paymentId: string) {
  const other = await getPrisma().payment.findFirst({
    where: { provider, providerTxnId: transactionId, NOT: { id: paymentId } },
    select: { id: true },
  })
  return other?.id ?? null
}

/** The statuses a payment can still settle from: money has not been taken (or not yet seen). */
const OPEN = ['pending', 'failed', 'cancelled'] satisfies PaymentStatus[]

/** Why money was held instead of applied (docs/payments.md): for the admin orders page. */
export type HoldReason =
  | 'amount_mismatch'
  | 'order_amount_changed'
  | 'user_not_found'
  /** The provider gave part of it back before it was applied: the rest is for staff. */
  | 'refunded_in_part'

export async function noteFailureReason(id: string, failureReason: string) {
  await getPrisma().payment.updateMany({
    where: { id, status: { in: OPEN } },
    data: { failureReason },
  })
}

/** failed/cancelled, unless money was already taken (`paid` is final). True when it changed. */
export async function markPaymentUnsuccessful(
  id: string,
  status: 'failed' | 'cancelled',
  transactionId: string,
  failureReason: string,
) {
  const { count } = await getPrisma().payment.updateMany({
    where: { id, status: { in: OPEN.filter((open) => open !== status) } },
    data: { status, providerTxnId: transactionId, failureReason },
  })
  return count > 0
}

/**
 * Money was taken, but not what is due: the payment is `held` for an admin with the reason;
 * nothing is credited and no order is marked paid. False when another delivery got there first.
 */
export async function holdPayment(id: string, transactionId: string, reason: HoldReason) {
  const { count } = await getPrisma().payment.updateMany({
    where: { id, status: { in: OPEN } },
    data: { status: 'held', providerTxnId: transactionId, failureReason: reason },
  })
  return count > 0
}

/**
 * Marks a package payment paid (after its bids were credited). False when another delivery of
 * the same event got there first.
 */
export async function markPackagePaid(id: string, transactionId: string) {
  const { count } = await getPrisma().payment.updateMany({
    where: { id, status: { in: OPEN } },
    data: { status: 'paid', providerTxnId: transactionId, paidAt: new Date(), failureReason: null },
  })
  return count > 0
}

/**
 * Settles an order payment in one transaction with its order, whose row is locked so a change of
 * delivery cannot slip in between (app/models/order.server.ts setDelivery):
 * - `paid`: the order awaited payment within its time and its total is exactly the payment's
 *   amount: both are paid;
 * - `held`: the order's total is no longer the payment's amount: the payment is held for an
 *   admin, the order stays as it is;
 * - `not_payable`: the order can no longer be paid (expired, paid already): the payment is paid
 *   with `failureReason = order_not_payable`, for staff to refund (docs/payments.md);
 * - `rejected`: not `paid`, and the provider lets us refuse the money (`canReject`): the payment
 *   is `failed` with the reason (order_not_payable, order_amount_changed), the order unchanged;
 * - null: another delivery of the same event settled it first.
 */
export async function settleOrderPayment(
  payment: { id: string; orderId: string | null; amount: number; currency: string },
  transactionId: string,
  canReject = false,
): Promise<'paid' | 'held' | 'not_payable' | 'rejected' | null> {
  return getPrisma()
    .$transaction(async (tx) => {
      const now = new Date()
      const [order] = payment.orderId
        ? await tx.$queryRaw<
            { status: string; expiresAt: Date; price: number; deliveryFee: number }[]
          >`SELECT status::text AS status, "expiresAt", price, "deliveryFee" FROM "Order"
            WHERE id = ${payment.orderId} FOR UPDATE`
        : []
      const payable = order?.status === 'awaiting_payment' && order.expiresAt > now
      const exact =
        order !== undefined &&
        payment.currency === CURRENCY &&
        order.price + order.deliveryFee === payment.amount
      const found = !payable ? 'not_payable' : exact ? 'paid' : 'held'
      const outcome = canReject && found !== 'paid' ? 'rejected' : found
      if (outcome === 'paid') {
        await tx.order.update({
          where: { id: payment.orderId! },
          data: { status: 'paid', paidAt: now },
        })
      }
      const settled = await tx.payment.updateMany({
        where: { id: payment.id, status: { in: OPEN } },
        data:
          outcome === 'rejected'
            ? {
                status: 'failed',
                providerTxnId: transactionId,
                failureReason: found === 'held' ? 'order_amount_changed' : 'order_not_payable',
              }
            : outcome === 'held'
              ? {
                  status: 'held',
                  providerTxnId: transactionId,
                  failureReason: 'order_amount_changed',
                }
              : {
                  status: 'paid',
                  providerTxnId: transactionId,
                  paidAt: now,
                  failureReason: outcome === 'paid' ? null : 'order_not_payable',
                },
      })
      // Another delivery of the same event won: undo nothing it did, change nothing here.
      if (settled.count === 0) throw new AlreadySettled()
      return outcome
    })
    .catch((error: unknown) => {
      if (error instanceof AlreadySettled) return null
      throw error
    })
}

class AlreadySettled extends Error {}
