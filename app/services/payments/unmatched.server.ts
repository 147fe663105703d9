import type { WebhookPayment } from '~/models/payment.server.ts'
import { holdUnmatchedMoney, type UnmatchedReason } from '~/models/payment-refund.server.ts'
import { log } from '~/utils/logger.server.ts'
import { json } from '~/utils/api.server.ts'
import type { PaymentEvent } from './provider.server.ts'

// Money we may not refuse (docs/payments.md "Money we may not refuse"). Without Freedom Pay's
// pg_can_reject=1 its payment counts as done whatever we answer, so answering `rejected` to a
// notification we cannot apply (a payment we do not know, a transaction id another payment has,
// a second charge for a paid payment) would leave the payer's money with us unrecorded. Such
// money is accepted (`ok`) and held on a row of its own for staff to refund on /admin/payments;
// the provider's repeats of the notification record it once.

/** Whether this event's money may not be refused and so must be held when we cannot apply it. */
export const mayNotRefuse = (event: PaymentEvent) =>
  event.canReject === false && event.status === 'paid'

export async function holdUnmatched(
  provider: string,
  event: PaymentEvent,
  reason: UnmatchedReason,
  /** The payment of ours it named or was about, when there is one. */
  payment: WebhookPayment | null,
): Promise<Response> {
  const held = await holdUnmatchedMoney({
    provider,
    transactionId: event.transactionId,
    paymentRef: event.paymentId,
    amount: event.amount,
    currency: event.currency,
    reason,
    like: payment && { userId: payment.userId, purpose: payment.purpose },
  })
  log.error('money we may not refuse and cannot apply: held for staff to refund', {
    provider,
    paymentId: event.paymentId,
    transactionId: event.transactionId,
    reason,
    heldAs: held.id,
    recorded: held.created,
    amount: event.amount,
    currency: event.currency,
    firstTransactionId: payment?.providerTxnId ?? null,
  })
  return json({ ok: true, paymentId: held.id, status: 'held', duplicate: !held.created })
}
