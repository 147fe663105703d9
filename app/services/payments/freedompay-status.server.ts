import { parseMoney } from '~/utils/money.ts'
import {
  FreedomPayError,
  listEntries,
  type PgFields,
  type PgMessage,
} from './freedompay-protocol.server.ts'
import type { PaymentEvent, PaymentStatusReport } from './provider.server.ts'

// How Freedom Pay's get_status3.php answer reads for us (docs/payments.md#freedom-pay): its
// pg_payment_status, and the money given back that its "after payment" page lists beside a
// payment that stays `success` (pg_refund_payments with a negative pg_refund_amount,
// pg_revoked_payments). Money given back never reads as paid.

/** How get_status3.php's pg_payment_status reads for us (docs/payments.md#freedom-pay). */
function statusOutcome(state: string): PaymentEvent['status'] | 'pending' {
  switch (state) {
    case 'success':
    case 'ok':
      return 'paid'
    case 'error':
    case 'failed':
      return 'failed'
    // Not on Freedom Pay's pages (a refunded payment stays `success` with its refunds listed),
    // read all the same as money given back in full.
    case 'revoked':
    case 'refunded':
      return 'refunded'
    case 'incomplete':
      // Its lifetime ran out before the payer paid.
      return 'cancelled'
    default:
      // partial (the payer has not paid yet), pending, or a state we do not know.
      return 'pending'
  }
}

/** A refund or revocation entry that did not move money back (it failed). */
const FAILED_ENTRY = new Set(['failed', 'error'])

/**
 * Minor units a status answer says went back to the payer: its refunds (pg_refund_payments,
 * and their sum, negative, in pg_refund_amount) and revocations (pg_revoked_payments), each
 * entry's pg_amount negative. An entry that says it failed moved nothing; one still under way
 * counts, so money on its way back is never credited.
 */
function givenBack(message: PgMessage, fields: PgFields) {
  const som = (value: string | undefined) => parseMoney((value ?? '').replace(/^-/, '')) ?? 0
  const listed = (list: string) =>
    listEntries(message, list)
      .filter((entry) => !FAILED_ENTRY.has(entry.pg_payment_status ?? ''))
      .reduce((sum, entry) => sum + som(entry.pg_amount), 0)
  const refunded = Math.max(listed('pg_refund_payments'), som(fields.pg_refund_amount))
  const revoked = listed('pg_revoked_payments')
  return { refunded, revoked, total: refunded + revoked }
}

/**
 * The report of a signed `ok` answer about Freedom Pay's payment `providerPaymentId` (our
 * `paymentId`): pending, or settled with the event a callback would have brought; a status
 * answer refuses nothing (canReject false).
 */
export function readStatus(
  paymentId: string,
  providerPaymentId: string,
  answer: PgFields,
  message: PgMessage,
): PaymentStatusReport {
  const state = answer.pg_payment_status ?? answer.pg_transaction_status ?? ''
  let outcome = statusOutcome(state)
  if (outcome === 'pending') return { known: true, status: 'pending' }
  const amount = parseMoney(answer.pg_amount ?? '')
  if (amount === null || !answer.pg_currency) {
    throw new FreedomPayError('Freedom Pay get_status3.php: incomplete answer')
  }
  const back = givenBack(message, answer)
  if (outcome === 'paid' && back.total > 0) outcome = 'refunded'
  const refunded = outcome === 'refunded' ? Math.min(amount, back.total || amount) : 0
  const revokedOnly = back.refunded === 0 && (back.revoked > 0 || state === 'revoked')
  const event: PaymentEvent = {
    paymentId,
    transactionId: providerPaymentId,
    status: outcome,
    amount,
    currency: answer.pg_currency,
    // A status answer refuses nothing: the payment is what it is.
    canReject: false,
    ...(outcome === 'paid'
      ? {}
      : outcome === 'refunded'
        ? { refunded, reason: revokedOnly ? 'revoked' : 'refunded' }
        : { reason: answer.pg_failure_description ?? answer.pg_payment_status ?? outcome }),
  }
  return { known: true, status: 'settled', event }
}
