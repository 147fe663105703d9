import type { TFunction } from 'i18next'
import type { Engine } from '../../../engine/index.ts'
import {
  findPaymentForWebhook,
  holdPayment,
  isUniqueViolation,
  markPackagePaid,
  markPaymentUnsuccessful,
  noteFailureReason,
  settleOrderPayment,
  transactionOwner,
  type WebhookPayment,
} from '~/models/payment.server.ts'
import { getFixedT } from '~/services/i18n.server.ts'
import { log } from '~/services/logger.server.ts'
import { clientKey, hit, type RateLimit } from '~/services/rate-limit.server.ts'
import { apiError, json, tooMany } from '~/utils/api.server.ts'
import { BodyTooLarge, MAX_JSON_BYTES, readBodyText } from '~/utils/request-body.server.ts'
import { getProvider, type PaymentEvent, type PaymentProvider } from './index.server.ts'

// The one code path every payment notification takes, whether it came over HTTP from a
// provider or from the sandbox's own checkout page. Rules (docs/payments.md,
// docs/decisions/013-credit-before-mark.md, 014-paid-is-final.md):
// - nothing is trusted before the signature over the raw body checks out;
// - money is applied only when the amount and currency are exactly what the Payment row says is
//   due and, for an order, what the order says now; otherwise the payment is held for an admin;
// - bids are credited through the engine with the reference `payment:{id}` BEFORE the row is
//   marked paid, so a crash in between is finished by the provider's retry, never doubled;
// - `paid` is final: later failed/cancelled events for it are ignored.

/**
 * Correctly signed notifications per source address: far above any real provider's pace. Only
 * a signed call counts here, so nobody without the secret can use up a provider's allowance.
 */
export const WEBHOOK_LIMIT: RateLimit = { limit: 600, windowSeconds: 60 }
/** Calls with a missing or wrong signature per source address, counted apart. */
export const WEBHOOK_BAD_SIGNATURE_LIMIT: RateLimit = { limit: 60, windowSeconds: 60 }

export const paymentReference = (paymentId: string) => `payment:${paymentId}`

export async function handlePaymentWebhook(
  providerName: string,
  request: Request,
  engine: Engine,
  /** The caller's address as the trusted proxies give it (the load context's `clientIp`). */
  clientIp: string,
): Promise<Response> {
  const t = await getFixedT(request, ['payments', 'common'])
  const provider = getProvider(providerName)
  if (!provider) return apiError(404, t('webhook.unknownProvider'))
  const answer = await verifyAndApply(provider, request, engine, t, clientKey(clientIp))
  if (!provider.answerWebhook) return answer
  // The provider's protocol decides how the answer looks (Freedom Pay: signed XML).
  const body: unknown = await answer
    .clone()
    .json()
    .catch(() => null)
  return provider.answerWebhook({ status: answer.status, body })
}

async function verifyAndApply(
  provider: PaymentProvider,
  request: Request,
  engine: Engine,
  t: TFunction,
  /** The caller's address, as the limits count it. */
  address: string,
): Promise<Response> {
  let raw: string
  try {
    raw = await readBodyText(request, MAX_JSON_BYTES)
  } catch (error) {
    if (error instanceof BodyTooLarge) return apiError(413, t('common:api.tooLarge'))
    return apiError(400, t('webhook.malformed'))
  }

  const parsed = provider.parseWebhook(raw, request.headers)
  if (!parsed.ok && parsed.reason === 'signature') {
    const wait = await hit(
      `payment-webhook-forged:${provider.name}`,
      address,
      WEBHOOK_BAD_SIGNATURE_LIMIT,
    )
    log.warn('payment webhook with a bad or missing signature', {
      provider: provider.name,
      address,
      limited: wait > 0,
    })
    return wait ? tooMany(t, wait) : apiError(401, t('webhook.badSignature'))
  }
  const wait = await hit(`payment-webhook:${provider.name}`, address, WEBHOOK_LIMIT)
  if (wait) {
    log.warn('payment webhook rate-limited', { provider: provider.name, address })
    return tooMany(t, wait)
  }
  if (!parsed.ok) {
    log.warn('malformed payment webhook', { provider: provider.name, detail: parsed.detail })
    return apiError(400, t('webhook.malformed'))
  }
  return applyPaymentEvent(provider.name, parsed.event, engine, t)
}

async function applyPaymentEvent(
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
  }
  const payment = await findPaymentForWebhook(provider, event.paymentId)
  if (!payment) {
    log.warn('payment webhook for an unknown payment', fields)
    return apiError(404, t('webhook.unknownPayment'))
  }

  const owner = await transactionOwner(provider, event.transactionId, payment.id)
  if (owner) {
    log.warn('payment webhook reuses another payment’s transaction id', { ...fields, owner })
    return apiError(409, t('webhook.transactionUsed'))
  }

  // Money was taken already (paid, held for an admin, or refunded since): nothing more happens.
  if (payment.status === 'paid' || payment.status === 'held' || payment.status === 'refunded')
    return afterPaid(payment, event, fields, t)

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
      : await settleOrder(payment, event, fields)
  } catch (error) {
    // Two payments raced for one transaction id: the unique index let only one have it.
    if (!isUniqueViolation(error)) throw error
    log.warn('payment webhook reuses another payment’s transaction id', fields)
    return apiError(409, t('webhook.transactionUsed'))
  }
}

/** A paid payment hears again: a replay is fine, anything else is ignored or escalated. */
function afterPaid(
  payment: WebhookPayment,
  event: PaymentEvent,
  fields: Record<string, unknown>,
  t: TFunction,
) {
  if (event.status !== 'paid') {
    log.info('payment event after paid ignored: paid is final', fields)
    return json({ ok: true, paymentId: payment.id, status: payment.status, ignored: true })
  }
  if (payment.providerTxnId && payment.providerTxnId !== event.transactionId) {
    // The payer was charged twice for one checkout: only staff can sort that out (refund).
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
  fields: Record<string, unknown>,
  t: TFunction,
) {
  const credited = payment.userId
    ? await engine.credit(payment.userId, payment.bids, 'topup', paymentReference(payment.id))
    : ({ ok: false, reason: 'user_not_found' } as const)
  if (!credited.ok) {
    log.error('paid bid package for a deleted account: refund it', fields)
    await noteFailureReason(payment.id, 'user_not_found')
    return apiError(409, t('webhook.userGone'))
  }
  const marked = await markPackagePaid(payment.id, event.transactionId)
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
  fields: Record<string, unknown>,
) {
  const outcome = await settleOrderPayment(payment, event.transactionId)
  const orderFields = { ...fields, orderId: payment.orderId }
  if (outcome === 'not_payable') {
    log.error('money received for an order that can no longer be paid: refund it', orderFields)
  } else if (outcome === 'held') {
    log.error('paid amount is no longer the order’s total: held for an admin', {
      ...orderFields,
      amount: payment.amount,
    })
  } else {
    log.info('order paid', { ...orderFields, marked: outcome !== null })
  }
  return json({ ok: true, paymentId: payment.id, status: outcome === 'held' ? 'held' : 'paid' })
}

/**
 * A settled status the provider gave when asked (reconciliation, app/services/payments/
 * reconcile.server.ts) goes through exactly the path of a webhook event.
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
