import { DomainError } from '~/utils/domain-error.ts'
import { findRefundTarget, recordRefund, type RefundTarget } from '~/models/admin-orders.server.ts'
import { log } from '~/services/logger.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import { getProvider } from './index.server.ts'

// An admin returns an order's money through the provider that took it (docs/rules.md#refunds,
// docs/payments.md). The order's row stays locked from the check to the record, so two admins
// (or two clicks) cannot refund twice, and a payment cannot settle against the order meanwhile.
// When the provider fails or refuses, nothing here changes.

/** How long a refund may wait for the provider before it counts as unreachable. */
const REFUND_TIMEOUT_MS = 30_000

export type RefundDone = {
  orderId: string
  paymentId: string
  amount: number
  currency: string
  /** The order was paid and is now cancelled; false for money held or taken too late. */
  orderCancelled: boolean
}

export async function refundOrder(
  orderId: string,
  admin: { id: string },
  reason: string,
): Promise<RefundDone> {
  return getPrisma().$transaction(
    async (tx) => {
      const target: RefundTarget = await findRefundTarget(tx, orderId)
      const provider = getProvider(target.payment.provider)
      const fields = {
        orderId,
        paymentId: target.payment.id,
        provider: target.payment.provider,
        adminId: admin.id,
      }
      if (!provider) {
        log.error('refund impossible: the payment’s provider is not configured', fields)
        throw new DomainError(503, 'admin-orders:errors.refundUnavailable')
      }
      let result
      try {
        result = await provider.refund({
          paymentId: target.payment.id,
          transactionId: target.payment.providerTxnId,
          amount: target.payment.amount,
          currency: target.payment.currency,
          reason,
        })
      } catch (error) {
        log.error('refund failed: the provider could not be reached', { ...fields, error })
        throw new DomainError(503, 'admin-orders:errors.refundUnavailable')
      }
      if (!result.ok) {
        log.error('refund refused by the provider', { ...fields, providerReason: result.reason })
        throw new DomainError(502, 'admin-orders:errors.refundRefused')
      }
      await recordRefund(tx, target, { adminId: admin.id, reason, refundId: result.refundId })
      log.info('order refunded', { ...fields, refundId: result.refundId, reason })
      return {
        orderId,
        paymentId: target.payment.id,
        amount: target.payment.amount,
        currency: target.payment.currency,
        orderCancelled: target.cancelOrder,
      }
    },
    { timeout: REFUND_TIMEOUT_MS + 5_000, maxWait: 10_000 },
  )
}
