import type { TFunction } from 'i18next'
import { creditPackageOrder, type Engine } from '../../../engine/index.ts'
import {
  findPaymentForWebhook,
  holdPayment,
  markPackagePaid,
  markPaymentUnsuccessful,
  noteFailureReason,
  settleOrderPayment,
  transactionOwner,
  type WebhookPayment,
} from '~/models/payment.server.ts'
import { alertAfter } from '~/services/alerts/enqueue.server.ts'
import { log } from '~/utils/logger.server.ts'
import { isUniqueViolation } from '~/utils/db.server.ts'
import { apiError, json } from '~/utils/api.server.ts'
import type { PaymentEvent } from './provider.server.ts'
import { afterGivenBack, applyProviderRefund } from './provider-refund.server.ts'
import { holdUnmatched, mayNotRefuse } from './unmatched.server.ts'
import { paymentReference } from './reference.ts'

// What a verified payment event does: the one path of a notification (webhook.server.ts) and
// of a status the reconciler was told (reconcile.server.ts). Rules (docs/payments.md,
// docs/decisions/013-credit-before-mark.md, 014-paid-is-final.md, 038-refusing-money.md):
// - money is applied only when the amount and currency are exactly what the Payment row says is
//   due and, for an order, what the order says now;
// - money we cannot use (another amount, an order no longer payable, an account gone) is
//   refused where the provider lets us (`canReject`: the payment fails, answered 409, which the
//   provider's protocol turns into a refusal it returns to the payer); otherwise it is held
//   for staff;
// - bids are credited through the engine with the reference `payment:{id}` BEFORE the row is
//   marked paid, so a crash in between is finished by the provider's retry, never doubled;
// - `paid` is final: later failed/cancelled events for it are ignored;
// - a notification we cannot apply at all (a payment we do not know, a transaction id of
//   another payment, a second charge) is refused only where the provider lets us; where it does
//   not (Freedom Pay without pg_can_reject=1), the money is held on a row of its own
//   (unmatched.server.ts, docs/decisions/074-refunds-freedom-pay-reports.md);
// - money given back (a refund the provider reports) never counts as paid: a paid bid package
//   takes its bids back (provider-refund.server.ts).

type Fields = Record<string, unknown>

export async function applyPaymentEvent(
  provider: string,
  event: PaymentEvent,
  engine: Engine,
  t: TFunction,
): Promise<Response> {
  const fields = {
    provider,
    paymentId: event.paymentId,
    transactionId: event.transactionId,
    status: event.status,
    canReject: event.canReject ?? false,
  }
  const payment = await findPaymentForWebhook(provider, event.paymentId)
  if (!payment) {
    // Refused only where the provider lets us; else it is held (unmatched.server.ts).
    if (mayNotRefuse(event)) return holdUnmatched(provider, event, 'unknown_payment', null)
    log.warn('payment webhook for an unknown payment', fields)
    return apiError(404, t('webhook.unknownPayment'))
  }

  const owner = await transactionOwner(provider, event.transactionId, payment.id)
  if (owner) {
    if (mayNotRefuse(event)) return holdUnmatched(provider, event, 'transaction_used', payment)
    log.warn('payment webhook reuses another payment’s transaction id', { ...fields, owner })
    return apiError(409, t('webhook.transactionUsed'))
  }

  // Money given back never counts as paid (provider-refund.server.ts).
  if (event.status === 'refunded') return applyProviderRefund(payment, event, engine, fields)
  const givenBack = afterGivenBack(payment, fields)
  if (givenBack) return givenBack

  // Money was taken already (paid, held for an admin, or refunded since): nothing more happens.
  if (payment.status === 'paid' || payment.status === 'held' || payment.status === 'refunded')
    return afterPaid(provider, payment, event, fields, t)

  if (event.amount !== payment.amount || event.currency !== payment.currency) {
    const expected = { amount: payment.amount, currency: payment.currency }
    const received = { amount: event.amount, currency: event.currency }
    if (event.status !== 'paid') {
      log.warn('payment webhook amount or currency differs from the payment', {
        ...fields,
        expected,
        received,
      })
      await noteFailureReason(payment.id, 'amount_mismatch')
      return apiError(409, t('webhook.amountMismatch'))
    }
    if (event.canReject) {
      await markPaymentUnsuccessful(payment.id, 'failed', event.transactionId, 'amount_mismatch')
      log.warn('paid amount or currency differs from the payment: refused', {
        ...fields,
        expected,
        received,
      })
      return apiError(409, t('webhook.amountMismatch'))
    }
    // Money other than what is due was taken: it waits for an admin, nothing is applied.
    const held = await holdPayment(payment.id, event.transactionId, 'amount_mismatch')
    log.error('paid amount or currency differs from the payment: held for an admin', {
      ...fields,
      expected,
      received,
      held,
    })
    return json({ ok: true, paymentId: payment.id, status: 'held' })
  }

  if (event.status !== 'paid') {
    const changed = await markPaymentUnsuccessful(
      payment.id,
      event.status,
      event.transactionId,
      event.reason ?? event.status,
    )
    log.info('payment not completed', { ...fields, changed })
    return json({ ok: true, paymentId: payment.id, status: event.status })
  }

  try {
    return payment.purpose === 'package'
      ? await settlePackage(payment, event, engine, fields, t)
      : await settleOrder(payment, event, engine, fields, t)
  } catch (error) {
    // Two payments raced for one transaction id: the unique index let only one have it.
    if (!isUniqueViolation(error)) throw error
    if (mayNotRefuse(event)) return holdUnmatched(provider, event, 'transaction_used', payment)
    log.warn('payment webhook reuses another payment’s transaction id', fields)
    return apiError(409, t('webhook.transactionUsed'))
  }
}

/** A paid payment hears again: a replay is fine, anything else is ignored or escalated. */
function afterPaid(
  provider: string,
  payment: WebhookPayment,
  event: PaymentEvent,
  fields: Fields,
  t: TFunction,
) {
  if (event.status !== 'paid') {
    // A failure after the money was taken: paid stays final (docs/decisions/014-paid-is-final.md).
    // Money given back is not this (provider-refund.server.ts).
    log.info('payment event after paid ignored: paid is final', {
      ...fields,
      reason: event.reason,
    })
    return json({ ok: true, paymentId: payment.id, status: payment.status, ignored: true })
  }
  if (payment.providerTxnId && payment.providerTxnId !== event.transactionId) {
    // The payer was charged twice for one checkout: refused where the provider allows it,
    // else held on a row of its own for staff to refund (unmatched.server.ts).
    if (mayNotRefuse(event)) return holdUnmatched(provider, event, 'second_charge', payment)
    log.error('second paid transaction for an already paid payment: refund it', {
      ...fields,
      firstTransactionId: payment.providerTxnId,
    })
    return apiError(409, t('webhook.alreadyPaid'))
  }
  return json({ ok: true, paymentId: payment.id, status: payment.status, duplicate: true })
}

async function settlePackage(
  payment: WebhookPayment,
  event: PaymentEvent,
  engine: Engine,
  fields: Fields,
  t: TFunction,
) {
  const credited = payment.userId
    ? await engine.credit(payment.userId, payment.bids, 'topup', paymentReference(payment.id))
    : ({ ok: false, reason: 'user_not_found' } as const)
  if (!credited.ok) {
    if (event.canReject) {
      await markPaymentUnsuccessful(payment.id, 'failed', event.transactionId, 'user_not_found')
      log.warn('paid bid package for a deleted account: refused', fields)
      return apiError(409, t('webhook.userGone'))
    }
    const held = await holdPayment(payment.id, event.transactionId, 'user_not_found')
    log.error('paid bid package for a deleted account: held for an admin to refund', {
      ...fields,
      held,
    })
    return json({ ok: true, paymentId: payment.id, status: 'held' })
  }
  const marked = await markPackagePaid(payment.id, event.transactionId)
  if (marked && payment.userId) await alertAfter([paymentCredited(payment.userId, payment.id)])
  log.info('bid package paid', {
    ...fields,
    bids: payment.bids,
    credited: credited.applied,
    marked,
    balance: credited.balance,
  })
  return json({ ok: true, paymentId: payment.id, status: 'paid' })
}

async function settleOrder(
  payment: WebhookPayment,
  event: PaymentEvent,
  engine: Engine,
  fields: Fields,
  t: TFunction,
) {
  const outcome = await settleOrderPayment(payment, event.transactionId, event.canReject)
  const orderFields = { ...fields, orderId: payment.orderId }
  if (outcome === 'rejected') {
    log.warn('money for an order that cannot take it: refused', orderFields)
    return apiError(409, t('webhook.orderNotPayable'))
  }
  if (outcome === 'not_payable') {
    log.error('money received for an order that can no longer be paid: refund it', orderFields)
  } else if (outcome === 'held') {
    log.error('paid amount is no longer the order’s total: held for an admin', {
      ...orderFields,
      amount: payment.amount,
    })
  } else {
    log.info('order paid', { ...orderFields, marked: outcome !== null })
    if (outcome === 'paid') await creditPaidOrder(engine, payment.orderId!, orderFields)
    if (outcome === 'paid' && payment.userId)
      await alertAfter([
        { ...paymentCredited(payment.userId, payment.id), orderId: payment.orderId ?? undefined },
      ])
  }
  return json({ ok: true, paymentId: payment.id, status: outcome === 'held' ? 'held' : 'paid' })
}

/**
 * A bid-package auction's order credits its bids once paid (engine/package-orders.ts); when that
 * fails now, the order worker credits it within 20 s.
 */
async function creditPaidOrder(engine: Engine, orderId: string, fields: Fields) {
  try {
    const credited = await creditPackageOrder(engine, orderId)
    if (credited !== 'not_due') log.info('bid-package order credited', { ...fields, credited })
  } catch (error) {
    log.warn('bid-package order not credited yet', { ...fields, error: String(error) })
  }
}

/**
 * A settled status the provider gave when asked (reconciliation, reconcile.server.ts) goes
 * through exactly the path of a webhook event.
 */
export async function applyReconciledEvent(
  provider: string,
  event: PaymentEvent,
  engine: Engine,
  t: TFunction,
): Promise<{ status: number; body: unknown }> {
  const answer = await applyPaymentEvent(provider, event, engine, t)
  return { status: answer.status, body: await answer.json().catch(() => null) }
}

/** The "payment credited" alert of a payment that was applied (docs/rules.md#alerts). */
function paymentCredited(userId: string, paymentId: string) {
  return { userId, kind: 'paymentCredited' as const, key: `paymentCredited:${paymentId}` }
}
