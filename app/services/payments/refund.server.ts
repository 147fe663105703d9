import { DomainError } from '~/utils/domain-error.ts'
import { findRefundTarget, recordRefund, type RefundTarget } from '~/models/admin-orders.server.ts'
import { lockHeldRefund, recordHeldRefund } from '~/models/payment-refund.server.ts'
import { log } from '~/utils/logger.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import { getProvider } from './index.server.ts'
import type { RefundRequest } from './provider.server.ts'

// An admin returns an order's money, or held money no order holds, through the provider that
// took it (docs/rules.md#refunds, docs/payments.md). The row (the order's, or the held
// payment's) stays locked from the check to the record, so two admins (or two clicks) cannot
// refund twice, and a payment cannot settle against the order meanwhile. When the provider
// fails or refuses, nothing here changes.

/** How long a refund may wait for the provider before it counts as unreachable. */
const REFUND_TIMEOUT_MS = 30_000
const TRANSACTION = { timeout: REFUND_TIMEOUT_MS + 5_000, maxWait: 10_000 }

export type RefundDone = {
  orderId: string
  paymentId: string
  amount: number
  currency: string
  /** The order was paid and is now cancelled; false for money held or taken too late. */
  orderCancelled: boolean
}

/**
 * The provider's refund of the whole of one payment: its refund id, or a DomainError (503 when
 * it is not configured or cannot be reached, 502 when it refuses), each logged with `fields`.
 */
async function providerRefund(
  payment: Omit<RefundRequest, 'paymentId' | 'reason'> & { id: string; provider: string },
  reason: string,
  fields: Record<string, unknown>,
): Promise<string> {
  const { id: paymentId, transactionId, amount, currency } = payment
  const request: RefundRequest = { paymentId, transactionId, amount, currency, reason }
  const provider = getProvider(payment.provider)
  if (!provider) {
    log.error('refund impossible: the payment’s provider is not configured', fields)
    throw new DomainError(503, 'admin-orders:errors.refundUnavailable')
  }
  let result
  try {
    result = await provider.refund(request)
  } catch (error) {
    log.error('refund failed: the provider could not be reached', { ...fields, error })
    throw new DomainError(503, 'admin-orders:errors.refundUnavailable')
  }
  if (!result.ok) {
    log.error('refund refused by the provider', { ...fields, providerReason: result.reason })
    throw new DomainError(502, 'admin-orders:errors.refundRefused')
  }
  return result.refundId
}

export async function refundOrder(
  orderId: string,
  admin: { id: string },
  reason: string,
): Promise<RefundDone> {
  return getPrisma().$transaction(async (tx) => {
    const target: RefundTarget = await findRefundTarget(tx, orderId)
    const { payment } = target
    const fields = { orderId, paymentId: payment.id, provider: payment.provider, adminId: admin.id }
    const refundId = await providerRefund(
      { ...payment, transactionId: payment.providerTxnId },
      reason,
      fields,
    )
    await recordRefund(tx, target, { adminId: admin.id, reason, refundId })
    log.info('order refunded', { ...fields, refundId, reason })
    return {
      orderId,
      paymentId: payment.id,
      amount: payment.amount,
      currency: payment.currency,
      orderCancelled: target.cancelOrder,
    }
  }, TRANSACTION)
}

export type HeldRefundDone = { paymentId: string; amount: number; currency: string }

/**
 * Staff return held money that no order holds (docs/rules.md#refunds): an amount other than a
 * bid package's, a package for an account gone, or money no payment of ours could take
 * (unmatched.server.ts). Anything but such held money: 409.
 */
export async function refundHeldPayment(
  paymentId: string,
  admin: { id: string },
  reason: string,
): Promise<HeldRefundDone> {
  return getPrisma().$transaction(async (tx) => {
    const held = await lockHeldRefund(tx, paymentId)
    if (!held) throw new DomainError(409, 'admin-payments:errors.notHeld')
    const fields = { paymentId, provider: held.provider, adminId: admin.id }
    // Money no payment of ours took keeps the provider's id as providerPaymentId.
    const transactionId = held.providerTxnId ?? held.providerPaymentId
    const refundId = await providerRefund({ ...held, transactionId }, reason, fields)
    await recordHeldRefund(tx, paymentId, { adminId: admin.id, reason, refundId })
    log.info('held money refunded', { ...fields, refundId, reason })
    return { paymentId, amount: held.amount, currency: held.currency }
  }, TRANSACTION)
}
