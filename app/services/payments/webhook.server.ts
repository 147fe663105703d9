import type { TFunction } from 'i18next'
import type { Engine } from '../../../engine/index.ts'
import {
  findPaymentForWebhook,
  isUniqueViolation,
  markOrderPaymentPaid,
  markPackagePaid,
  markPaymentUnsuccessful,
  noteFailureReason,
  transactionOwner,
  type WebhookPayment,
} from '~/models/payment.server.ts'
import { getFixedT } from '~/services/i18n.server.ts'
import { log } from '~/services/logger.server.ts'
import { hit, type RateLimit } from '~/services/rate-limit.server.ts'
import { apiError, json, tooMany } from '~/utils/api.server.ts'
import { getProvider, type PaymentEvent } from './index.server.ts'

// The one code path every payment notification takes, whether it came over HTTP from a
// provider or from the sandbox's own checkout page. Rules (docs/payments.md,
// docs/decisions/013-credit-before-mark.md, 014-paid-is-final.md):
// - nothing is trusted before the signature over the raw body checks out;
// - the amount and currency must be exactly those of our Payment row;
// - bids are credited through the engine with the reference `payment:{id}` BEFORE the row is
//   marked paid, so a crash in between is finished by the provider's retry, never doubled;
// - `paid` is final: later failed/cancelled events for it are ignored.

const MAX_BODY_BYTES = 64 * 1024
/** Per provider: far above any real provider's pace, low enough to blunt a flood of forgeries. */
export const WEBHOOK_LIMIT: RateLimit = { limit: 600, windowSeconds: 60 }

export const paymentReference = (paymentId: string) => `payment:${paymentId}`

export async function handlePaymentWebhook(
  providerName: string,
  request: Request,
  engine: Engine,
): Promise<Response> {
  const t = await getFixedT(request, ['payments', 'common'])
  const provider = getProvider(providerName)
  if (!provider) return apiError(404, t('webhook.unknownProvider'))

  const wait = await hit('payment-webhook', provider.name, WEBHOOK_LIMIT)
  if (wait) {
    log.warn('payment webhook rate-limited', { provider: provider.name })
    return tooMany(t, wait)
  }

  const length = Number(request.headers.get('content-length') ?? 0)
  if (length > MAX_BODY_BYTES) return apiError(413, t('common:api.tooLarge'))
  let raw: string
  try {
    raw = await request.text()
  } catch {
    return apiError(400, t('webhook.malformed'))
  }
  if (raw.length > MAX_BODY_BYTES) return apiError(413, t('common:api.tooLarge'))

  const parsed = provider.parseWebhook(raw, request.headers)
  if (!parsed.ok) {
    if (parsed.reason === 'signature') {
      log.warn('payment webhook with a bad or missing signature', { provider: provider.name })
      return apiError(401, t('webhook.badSignature'))
    }
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

  if (event.amount !== payment.amount || event.currency !== payment.currency) {
    log.warn('payment webhook amount or currency differs from the payment', {
      ...fields,
      expected: { amount: payment.amount, currency: payment.currency },
      received: { amount: event.amount, currency: event.currency },
    })
    await noteFailureReason(payment.id, 'amount_mismatch')
    return apiError(409, t('webhook.amountMismatch'))
  }

  const owner = await transactionOwner(provider, event.transactionId, payment.id)
  if (owner) {
    log.warn('payment webhook reuses another payment’s transaction id', { ...fields, owner })
    return apiError(409, t('webhook.transactionUsed'))
  }

  if (payment.status === 'paid') return afterPaid(payment, event, fields, t)

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
    return json({ ok: true, paymentId: payment.id, status: 'paid', ignored: true })
  }
  if (payment.providerTxnId && payment.providerTxnId !== event.transactionId) {
    // The payer was charged twice for one checkout: only staff can sort that out (refund).
    log.error('second paid transaction for an already paid payment: refund it', {
      ...fields,
      firstTransactionId: payment.providerTxnId,
    })
    return apiError(409, t('webhook.alreadyPaid'))
  }
  return json({ ok: true, paymentId: payment.id, status: 'paid', duplicate: true })
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
  const settled = await markOrderPaymentPaid(payment.id, payment.orderId, event.transactionId)
  if (settled && !settled.orderPaid) {
    log.error('money received for an order that can no longer be paid: refund it', {
      ...fields,
      orderId: payment.orderId,
    })
  } else {
    log.info('order paid', { ...fields, orderId: payment.orderId, marked: Boolean(settled) })
  }
  return json({ ok: true, paymentId: payment.id, status: 'paid' })
}
