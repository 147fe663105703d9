import type { PaymentStatus } from '~/utils/db.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import { toMajor } from '~/utils/money.ts'
import { pageOf } from '~/utils/paging.ts'

// Payments as staff and the reconciliation worker see them (docs/payments.md#reconciliation).

export const ADMIN_PAYMENTS_PER_PAGE = 20

export async function listPayments({
  status,
  page = 1,
  perPage = ADMIN_PAYMENTS_PER_PAGE,
}: {
  status?: PaymentStatus | null
  page?: number
  perPage?: number
}) {
  const prisma = getPrisma()
  const where = status ? { status } : {}
  const total = await prisma.payment.count({ where })
  const { current, totalPages, skip, take } = pageOf(total, page, perPage)
  const payments = await prisma.payment.findMany({
    where,
    select: {
      id: true,
      provider: true,
      providerTxnId: true,
      purpose: true,
      bids: true,
      orderId: true,
      amount: true,
      currency: true,
      providerPaymentId: true,
      status: true,
      failureReason: true,
      paidAt: true,
      refundedAt: true,
      refundedBy: true,
      refundReason: true,
      bidsTakenBack: true,
      bidsOwed: true,
      createdAt: true,
      user: { select: { id: true, username: true } },
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    skip,
    take,
  })
  return { payments, total, page: current, totalPages }
}
export type AdminPaymentView = Awaited<ReturnType<typeof listPayments>>['payments'][number]

/** The JSON API's shape: money in som. */
export function paymentJson(payment: AdminPaymentView) {
  return { ...payment, amount: toMajor(payment.amount) }
}

/**
 * Pending payments whose provider is due to be asked (docs/payments.md#reconciliation): those
 * never asked that were started before `firstBefore`, and those whose next question is due by
 * `now`; the longest waiting first.
 */
export function duePendingPayments(now: Date, firstBefore: Date, limit: number) {
  return getPrisma().payment.findMany({
    where: {
      status: 'pending',
      OR: [{ nextCheckAt: { lte: now } }, { nextCheckAt: null, createdAt: { lt: firstBefore } }],
    },
    select: {
      id: true,
      provider: true,
      providerTxnId: true,
      providerPaymentId: true,
      createdAt: true,
      checkCount: true,
    },
    orderBy: [{ nextCheckAt: { sort: 'asc', nulls: 'first' } }, { createdAt: 'asc' }],
    take: limit,
  })
}

/** When a pending payment's provider is asked next, after it was asked `checkCount` times. */
export async function scheduleNextCheck(id: string, checkCount: number, nextCheckAt: Date) {
  await getPrisma().payment.updateMany({
    where: { id, status: 'pending' },
    data: { checkCount, nextCheckAt },
  })
}

/**
 * Paid payments due to be asked again whether their provider refunded them
 * (docs/payments.md#reconciliation): those whose next question is due by `now`, and those paid
 * between `paidFrom` and `paidBefore` never asked yet; the longest waiting first.
 */
export function dueRefundChecks(
  now: Date,
  window: { paidFrom: Date; paidBefore: Date; checks: number },
  limit: number,
) {
  if (limit <= 0) return Promise.resolve([])
  return getPrisma().payment.findMany({
    where: {
      status: 'paid',
      paidAt: { not: null },
      refundChecks: { lt: window.checks },
      OR: [
        { refundCheckAt: { lte: now } },
        {
          refundCheckAt: null,
          refundChecks: 0,
          paidAt: { gte: window.paidFrom, lte: window.paidBefore },
        },
      ],
    },
    select: {
      id: true,
      provider: true,
      providerTxnId: true,
      providerPaymentId: true,
      paidAt: true,
      refundChecks: true,
    },
    orderBy: [{ refundCheckAt: { sort: 'asc', nulls: 'first' } }, { paidAt: 'asc' }],
    take: limit,
  })
}

/** When a paid payment is asked next whether it was refunded; null: never again. */
export async function scheduleRefundCheck(id: string, refundChecks: number, at: Date | null) {
  await getPrisma().payment.updateMany({
    where: { id, status: 'paid' },
    data: { refundChecks, refundCheckAt: at },
  })
}

/** A pending payment nobody ever paid: cancelled, reason `expired`. True when it changed. */
export async function expirePendingPayment(id: string) {
  const { count } = await getPrisma().payment.updateMany({
    where: { id, status: 'pending' },
    data: { status: 'cancelled', failureReason: 'expired' },
  })
  return count > 0
}
