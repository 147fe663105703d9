import type { BidPackage } from '~/utils/bid-packages.ts'
import { getPrisma } from '~/utils/db.server.ts'

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

/** Why an order cannot be paid now, or null when it can (docs/rules.md#winner-orders: 48 hours). */
export function orderNotPayable(
  order: Pick<UserOrder, 'status' | 'expiresAt' | 'deliveryMethod'>,
  now = new Date(),
): 'not_awaiting' | 'expired' | 'no_delivery' | null {
  if (order.status !== 'awaiting_payment') return 'not_awaiting'
  if (order.expiresAt.getTime() <= now.getTime()) return 'expired'
  if (!order.deliveryMethod) return 'no_delivery'
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

export async function noteFailureReason(id: string, failureReason: string) {
  await getPrisma().payment.updateMany({
    where: { id, status: { not: 'paid' } },
    data: { failureReason },
  })
}

/** failed/cancelled, unless it is already paid (`paid` is final). True when it changed. */
export async function markPaymentUnsuccessful(
  id: string,
  status: 'failed' | 'cancelled',
  transactionId: string,
  failureReason: string,
) {
  const { count } = await getPrisma().payment.updateMany({
    where: { id, status: { notIn: ['paid', status] } },
    data: { status, providerTxnId: transactionId, failureReason },
  })
  return count > 0
}

/**
 * Marks a package payment paid (after its bids were credited). False when another delivery of
 * the same event got there first.
 */
export async function markPackagePaid(id: string, transactionId: string) {
  const { count } = await getPrisma().payment.updateMany({
    where: { id, status: { not: 'paid' } },
    data: { status: 'paid', providerTxnId: transactionId, paidAt: new Date(), failureReason: null },
  })
  return count > 0
}

/**
 * Marks an order payment paid and, in the same transaction, its order — only while the order
 * still awaits payment within its time. `orderPaid: false` means the money came for an order
 * that can no longer be paid: staff must refund it (docs/payments.md).
 */
export async function markOrderPaymentPaid(
  id: string,
  orderId: string | null,
  transactionId: string,
) {
  return getPrisma()
    .$transaction(async (tx) => {
      const now = new Date()
      const order = orderId
        ? await tx.order.updateMany({
            where: { id: orderId, status: 'awaiting_payment', expiresAt: { gt: now } },
            data: { status: 'paid', paidAt: now },
          })
        : { count: 0 }
      const orderPaid = order.count > 0
      const payment = await tx.payment.updateMany({
        where: { id, status: { not: 'paid' } },
        data: {
          status: 'paid',
          providerTxnId: transactionId,
          paidAt: now,
          failureReason: orderPaid ? null : 'order_not_payable',
        },
      })
      // Another delivery of the same event won: undo nothing it did, change nothing here.
      if (payment.count === 0) throw new AlreadySettled()
      return { orderPaid }
    })
    .catch((error: unknown) => {
      if (error instanceof AlreadySettled) return null
      throw error
    })
}

class AlreadySettled extends Error {}

export function isUniqueViolation(error: unknown) {
  return (error as { code?: string } | null)?.code === 'P2002'
}
