import { createHash } from 'node:crypto'
import {
  getPrisma,
  type PaymentPurpose,
  type PaymentStatus,
  type Prisma,
  isUniqueViolation,
} from '~/utils/db.server.ts'

// Money given back by the provider, and money no payment of ours could take, as the Payment rows
// keep it (docs/payments.md "Refunds Freedom Pay reports", "Money we may not refuse"). Every
// change is guarded by the status it leaves, so a repeat of the same news changes nothing.

/** Why a notification's money is held on a row of its own instead of a payment of ours. */
type Tx = Prisma.TransactionClient

export type UnmatchedReason = 'unknown_payment' | 'transaction_used' | 'second_charge'

/**
 * Money a provider says it took that no payment of ours can take, and which it would not let us
 * refuse: a `held` row of its own for staff to refund. Its id follows from what it is about, so
 * the provider's repeats of one notification record it once (`created: false` for a repeat).
 * The provider's transaction id is kept as `providerPaymentId` (what a refund names), never as
 * `providerTxnId`, which belongs to the payment that transaction paid, if any.
 */
export async function holdUnmatchedMoney(money: {
  provider: string
  transactionId: string
  /** Our payment the provider named (its order reference), as it came. */
  paymentRef: string
  amount: number
  currency: string
  reason: UnmatchedReason
  /** The payment of ours it was about, when there is one: its payer and purpose. */
  like: { userId: string | null; purpose: PaymentPurpose } | null
}): Promise<{ id: string; created: boolean }> {
  const key = [money.provider, money.reason, money.transactionId, money.paymentRef].join('\n')
  const id = `held_${createHash('sha256').update(key).digest('hex').slice(0, 24)}`
  try {
    await getPrisma().payment.create({
      data: {
        id,
        provider: money.provider,
        providerPaymentId: money.transactionId.slice(0, 100),
        userId: money.like?.userId ?? null,
        purpose: money.like?.purpose ?? 'package',
        bids: 0,
        amount: money.amount,
        currency: money.currency.slice(0, 3),
        status: 'held',
        failureReason: money.reason,
      },
    })
    return { id, created: true }
  } catch (error) {
    if (isUniqueViolation(error)) return { id, created: false }
    throw error
  }
}

/** What became of the bids a refunded payment credited, and why it counts as refunded. */
export type ProviderRefund = {
  /** `refunded` or `revoked`: how the provider gave the money back. */
  reason: string
  /** Only part of the money went back: the rest is for staff to return. */
  inPart: boolean
  /** Its bids were credited while it was not yet marked paid: it is marked paid then too. */
  credited?: boolean
  /** Bids it credited: taken back from the balance, and those the balance no longer held. */
  bidsTakenBack?: number
  bidsOwed?: number
}

/**
 * A payment whose money its provider gave back, from one of the statuses `from`: `refunded`,
 * with when, why and, for a bid package, its bids. False when it was no longer in one of them.
 */
export async function markRefundedByProvider(
  id: string,
  from: PaymentStatus[],
  refund: ProviderRefund,
): Promise<boolean> {
  const { count } = await getPrisma().payment.updateMany({
    where: { id, status: { in: from } },
    data: {
      status: 'refunded',
      refundedAt: new Date(),
      refundReason: refund.reason,
      bidsTakenBack: refund.bidsTakenBack ?? null,
      bidsOwed: refund.bidsOwed ?? null,
      refundCheckAt: null,
      ...(refund.inPart ? { failureReason: 'refunded_in_part' } : {}),
      ...(refund.credited ? { paidAt: new Date() } : {}),
    },
  })
  return count > 0
}

/**
 * The bids a paid order credited: a bid-package auction's order, paid or delivered (its bids
 * credited, or owed and credited soon: engine/package-orders.ts); 0 for an item's.
 */
export async function paidOrderBids(orderId: string | null): Promise<number> {
  if (!orderId) return 0
  const order = await getPrisma().order.findUnique({
    where: { id: orderId },
    select: { bids: true, status: true },
  })
  return order && (order.status === 'paid' || order.status === 'delivered') ? order.bids : 0
}

const heldSelect = {
  id: true,
  provider: true,
  providerTxnId: true,
  providerPaymentId: true,
  amount: true,
  currency: true,
  failureReason: true,
  user: { select: { username: true } },
} satisfies Prisma.PaymentSelect

/**
 * Held money staff may refund on /admin/payments: `held`, for no order (an order's money is
 * refunded on /admin/orders). Null for anything else.
 */
export async function findHeldRefund(id: string, tx: Tx = getPrisma()) {
  if (!id || id.length > 64) return null
  return tx.payment.findFirst({ where: { id, status: 'held', orderId: null }, select: heldSelect })
}
export type HeldRefund = NonNullable<Awaited<ReturnType<typeof findHeldRefund>>>

/** The held money of findHeldRefund with its row locked until the transaction ends. */
export async function lockHeldRefund(tx: Tx, id: string) {
  if (!id || id.length > 64) return null
  await tx.$queryRaw`SELECT id FROM "Payment" WHERE id = ${id} FOR UPDATE`
  return findHeldRefund(id, tx)
}

/** An admin's refund the provider made. */
export type AdminRefund = { adminId: string; reason: string; refundId: string }

/** How a payment an admin refunded is recorded: by whom, why, the provider's id of it. */
export const adminRefunded = (refund: AdminRefund) =>
  ({
    status: 'refunded',
    refundedAt: new Date(),
    refundedBy: refund.adminId,
    refundReason: refund.reason,
    refundId: refund.refundId,
  }) satisfies Prisma.PaymentUpdateInput

/** A staff refund of held money, recorded once the provider made it. */
export async function recordHeldRefund(tx: Tx, id: string, refund: AdminRefund) {
  await tx.payment.update({ where: { id }, data: adminRefunded(refund) })
}
