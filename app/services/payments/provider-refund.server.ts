import type { Engine } from '../../../engine/index.ts'
import {
  holdPayment,
  markPaymentUnsuccessful,
  type WebhookPayment,
} from '~/models/payment.server.ts'
import {
  markRefundedByProvider,
  paidOrderBids,
  type ProviderRefund,
} from '~/models/payment-refund.server.ts'
import { log } from '~/utils/logger.server.ts'
import type { PaymentStatus } from '~/utils/db.server.ts'
import { json } from '~/utils/api.server.ts'
import type { PaymentEvent } from './provider.server.ts'
import { paymentReference, refundReference } from './reference.ts'

// Money the provider reports given back (docs/payments.md "Refunds Freedom Pay reports"): a
// refund, or the provider taking the payment back. Given back never counts as paid:
// - a payment not applied yet is never applied: `cancelled` when all of it went back, `held`
//   (reason refunded_in_part) for staff when only part did;
// - a paid bid package takes its bids back through the ledger, as many as the balance holds
//   (engine takeBack, once per payment); the payment is `refunded` with the bids taken back and
//   those the balance no longer held (`bidsOwed`), which staff see on /admin/payments;
// - a paid order's payment is `refunded` and staff are told; the order is theirs to decide
//   (it may have shipped); a bid-package auction's order paid by it takes its bids back the
//   same way (docs/decisions/077-bid-package-orders-credit-bids.md), the order left delivered;
// - money held for staff that the provider gave back is `refunded`.
// A part refund counts as a refund of the whole for the bids (the payment no longer counts as
// paid); the rest of its money is for staff to return (failureReason refunded_in_part). A
// payment cancelled because all its money went back takes no later `paid` (afterGivenBack).

type Fields = Record<string, unknown>

export async function applyProviderRefund(
  payment: WebhookPayment,
  event: PaymentEvent,
  engine: Engine,
  fields: Fields,
): Promise<Response> {
  const reason = event.reason === 'revoked' ? 'revoked' : 'refunded'
  const inPart = (event.refunded ?? event.amount) < payment.amount
  const answer = (status: string, extra: Fields = {}) =>
    json({ ok: true, paymentId: payment.id, status, ...extra })
  const logged = { ...fields, reason, refunded: event.refunded, amount: payment.amount }

  if (payment.status === 'refunded') return answer('refunded', { duplicate: true })

  const open =
    payment.status === 'pending' || payment.status === 'failed' || payment.status === 'cancelled'
  // Credited while its marking as paid failed (Postgres away): given back as a paid one is.
  const credited =
    open && payment.purpose === 'package' && (await engine.applied(paymentReference(payment.id)))
  if (open && !credited) {
    if (!inPart) {
      const changed = await markPaymentUnsuccessful(
        payment.id,
        'cancelled',
        event.transactionId,
        reason,
      )
      log.info('payment given back before it was applied: never credited', { ...logged, changed })
      return answer('cancelled')
    }
    const held = await holdPayment(payment.id, event.transactionId, 'refunded_in_part')
    log.error('payment given back in part before it was applied: the rest held for staff', {
      ...logged,
      held,
    })
    return answer('held')
  }

  if (payment.status === 'held') {
    if (inPart) {
      log.error('held money given back in part by the provider: the rest still held', logged)
      return answer('held')
    }
    const changed = await markRefundedByProvider(payment.id, ['held'], { reason, inPart })
    log.info('held money given back by the provider', { ...logged, changed })
    return answer('refunded')
  }

  // paid (or credited and not yet marked)
  const refund: ProviderRefund = { reason, inPart, credited }
  const bids = payment.purpose === 'package' ? payment.bids : await paidOrderBids(payment.orderId)
  if (bids > 0) Object.assign(refund, await takeBackBids(payment, bids, engine))
  const from: PaymentStatus[] = credited ? ['pending', 'failed', 'cancelled'] : ['paid']
  const changed = await markRefundedByProvider(payment.id, from, refund)
  log.error(
    payment.purpose === 'package'
      ? 'paid bid package refunded by the provider: its bids taken back'
      : 'paid order refunded by the provider: staff decide about the order',
    { ...logged, ...refund, orderId: payment.orderId, changed },
  )
  return answer('refunded', {
    bidsTakenBack: refund.bidsTakenBack ?? null,
    bidsOwed: refund.bidsOwed ?? null,
  })
}

/** Why a payment was cancelled when its provider gave all of its money back. */
const GIVEN_BACK = new Set(['refunded', 'revoked'])

/**
 * A payment cancelled because all of its money went back stays so: a late `paid` about it (the
 * provider's retry of a callback sent before the refund) changes nothing. Null for any other.
 */
export function afterGivenBack(payment: WebhookPayment, fields: Fields): Response | null {
  if (payment.status !== 'cancelled' || !GIVEN_BACK.has(payment.failureReason ?? '')) return null
  log.warn('payment event after its money was given back ignored', {
    ...fields,
    reason: payment.failureReason,
  })
  return json({ ok: true, paymentId: payment.id, status: payment.status, ignored: true })
}

/** Thrown while a repeated take-back's ledger row is still on its way: asked again later. */
export class TakeBackPending extends Error {
  constructor(paymentId: string) {
    super(`the take-back of payment ${paymentId} is not in the ledger yet: asked again later`)
    this.name = 'TakeBackPending'
  }
}

/**
 * The bids the payment credited (a package's, or a bid-package auction's order's), taken back as
 * far as the balance allows, once per payment. An account gone took its bids with it: nothing to
 * take, nothing owed.
 */
async function takeBackBids(payment: WebhookPayment, bids: number, engine: Engine) {
  if (!payment.userId) return { bidsTakenBack: 0, bidsOwed: 0 }
  const result = await engine.takeBack(payment.userId, bids, refundReference(payment.id))
  if (!result.ok) return { bidsTakenBack: 0, bidsOwed: 0 }
  if (result.taken === null) throw new TakeBackPending(payment.id)
  return { bidsTakenBack: result.taken, bidsOwed: bids - result.taken }
}
