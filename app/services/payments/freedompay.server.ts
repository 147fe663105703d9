import { getEnv } from '~/utils/env.server.ts'
import { parseMoney } from '~/utils/money.ts'
import {
  FreedomPayError,
  givenSignature,
  parseFormMessage,
  parseXmlMessage,
  pgSignatureValid,
  signFields,
  topFields,
  xmlResponse,
  type PgFields,
  type PgMessage,
} from './freedompay-protocol.server.ts'
import { readStatus } from './freedompay-status.server.ts'
import type {
  PaymentProvider,
  PaymentStatusReport,
  WebhookAnswer,
  WebhookParse,
} from './provider.server.ts'

export { FreedomPayError }

// Freedom Pay (formerly PayBox), the Merchant API, in KGS (docs/payments.md#freedom-pay):
// - every message either way is `pg_*` fields signed with `pg_sig`
//   (freedompay-protocol.server.ts); an answer without a right signature is refused;
// - init_payment.php answers the hosted page (pg_redirect_url) and its payment id
//   (pg_payment_id), which checkout keeps on the Payment;
// - its server then calls our result URL (/api/payments/webhook/freedompay) with the outcome,
//   signed with the script name `freedompay` (the URL's last segment), and wants a signed XML
//   answer: pg_status ok / rejected (only where it sent pg_can_reject=1) / error; anything
//   but HTTP 200 makes it call again;
// - get_status3.php tells how a payment stands, asked by pg_payment_id; a refunded payment stays
//   `success` there, its refunds listed beside (pg_refund_payments, pg_refund_amount), so the
//   lists are read too: money given back never counts as paid; revoke.php refunds.

export const FREEDOMPAY = 'freedompay'
/** Any call to Freedom Pay's API that takes longer than this is abandoned with an error. */
export const FREEDOMPAY_TIMEOUT_MS = 10_000
/**
 * Least pause between two status questions (docs/payments.md#reconciliation): Freedom Pay's
 * pages ask for 1.5 to 2 seconds between consecutive calls of its payment API; we take 2.
 */
export const FREEDOMPAY_STATUS_PAUSE_MS = 2_000

export type FreedomPayConfig = {
  merchantId: string
  secretKey: string
  /** Base URL of the API (`https://api.freedompay.kg`); tests point it at a local fake. */
  apiUrl: string
  testMode: boolean
  timeoutMs?: number
  fetch?: typeof fetch
}

/** Where `call` keeps an answer's whole message beside its top-level fields. */
const MESSAGE = Symbol('message')

/** Som with two decimals, as Freedom Pay takes amounts. */
const toSom = (minor: number) => (minor / 100).toFixed(2)

function configFromEnv(): FreedomPayConfig {
  const env = getEnv()
  if (!env.FREEDOMPAY_MERCHANT_ID || !env.FREEDOMPAY_SECRET_KEY) {
    throw new FreedomPayError('FREEDOMPAY_MERCHANT_ID and FREEDOMPAY_SECRET_KEY are not set')
  }
  return {
    merchantId: env.FREEDOMPAY_MERCHANT_ID,
    secretKey: env.FREEDOMPAY_SECRET_KEY,
    apiUrl: env.FREEDOMPAY_API_URL,
    testMode: env.FREEDOMPAY_TEST_MODE === '1',
  }
}

/** Webhook answers by what the handler decided (webhook.server.ts, docs/payments.md). */
function answerStatus(status: number, canReject: boolean): 'ok' | 'rejected' | 'error' {
  if (status >= 200 && status < 300) return 'ok'
  if (status === 404 || status === 409) {
    // Money we refuse (an unknown payment, a transaction of another payment, money we cannot
    // use): Freedom Pay returns it to the payer, but only where the callback said
    // pg_can_reject=1; otherwise the payment counts as done whatever we answer, so we never
    // say `rejected` (such money is held, apply-event.server.ts) and a refusal of a failure
    // that moved no money is just `ok`.
    return canReject ? 'rejected' : 'ok'
  }
  return 'error'
}

export function freedomPayProvider(config: FreedomPayConfig = configFromEnv()): PaymentProvider {
  const base = config.apiUrl.replace(/\/+$/, '')
  const timeoutMs = config.timeoutMs ?? FREEDOMPAY_TIMEOUT_MS
  const doFetch = config.fetch ?? fetch

  /**
   * POSTs a signed request to `script`; its XML answer's top-level fields and the whole message
   * (nested lists), once its pg_sig checks out.
   */
  async function call(
    script: string,
    fields: PgFields,
  ): Promise<PgFields & { [MESSAGE]: PgMessage }> {
    const signed = signFields(
      script,
      { pg_merchant_id: config.merchantId, ...fields },
      config.secretKey,
    )
    let text: string
    let status: number
    try {
      const response = await doFetch(`${base}/${script}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(signed).toString(),
        signal: AbortSignal.timeout(timeoutMs),
      })
      status = response.status
      text = await response.text()
    } catch (error) {
      const name = error instanceof Error ? error.name : ''
      if (name === 'TimeoutError' || name === 'AbortError') {
        throw new FreedomPayError(`Freedom Pay ${script}: no answer within ${timeoutMs} ms`)
      }
      throw new FreedomPayError(`Freedom Pay ${script}: ${String(error)}`)
    }
    const message = parseXmlMessage(text)
    if (!message) {
      throw new FreedomPayError(`Freedom Pay ${script}: HTTP ${status}, the answer is not XML`)
    }
    const answer = topFields(message)
    // Status answers settle money: nothing unsigned or signed with another key is believed.
    // Freedom Pay leaves only its "unknown merchant" answer unsigned.
    if (!givenSignature(message)) {
      throw new FreedomPayError(
        `Freedom Pay ${script}: unsigned answer (${describeError(answer)}); check FREEDOMPAY_MERCHANT_ID`,
      )
    }
    if (!pgSignatureValid(script, message, config.secretKey)) {
      throw new FreedomPayError(
        `Freedom Pay ${script}: the answer's signature is wrong; check FREEDOMPAY_SECRET_KEY`,
      )
    }
    return Object.assign(answer, { [MESSAGE]: message })
  }

  const describeError = (fields: PgFields) =>
    [fields.pg_error_code, fields.pg_error_description ?? fields.pg_description]
      .filter(Boolean)
      .join(' ') || 'error'

  return {
    name: FREEDOMPAY,
    statusPauseMs: FREEDOMPAY_STATUS_PAUSE_MS,

    async createCheckout({ paymentId, amount, currency, description, origin }) {
      const back = `${origin}/topup?payment=${encodeURIComponent(paymentId)}`
      const answer = await call('init_payment.php', {
        pg_order_id: paymentId,
        pg_amount: toSom(amount),
        pg_currency: currency,
        pg_description: description,
        pg_result_url: `${origin}/api/payments/webhook/${FREEDOMPAY}`,
        pg_request_method: 'POST',
        pg_success_url: back,
        pg_failure_url: back,
        pg_success_url_method: 'GET',
        pg_failure_url_method: 'GET',
        pg_testing_mode: config.testMode ? '1' : '0',
      })
      if (answer.pg_status !== 'ok' || !answer.pg_redirect_url || !answer.pg_payment_id) {
        throw new FreedomPayError(`Freedom Pay init_payment.php refused: ${describeError(answer)}`)
      }
      return { url: answer.pg_redirect_url, providerPaymentId: answer.pg_payment_id }
    },

    parseWebhook(rawBody): WebhookParse {
      const message = parseFormMessage(rawBody)
      if (!pgSignatureValid(FREEDOMPAY, message, config.secretKey)) {
        return { ok: false, reason: 'signature' }
      }
      const fields = topFields(message)
      const { pg_order_id: paymentId, pg_payment_id: transactionId, pg_result: result } = fields
      if (!paymentId || paymentId.length > 64) {
        return { ok: false, reason: 'malformed', detail: 'pg_order_id' }
      }
      if (!transactionId || transactionId.length > 100) {
        return { ok: false, reason: 'malformed', detail: 'pg_payment_id' }
      }
      if (result !== '1' && result !== '0') {
        return { ok: false, reason: 'malformed', detail: 'pg_result' }
      }
      const amount = parseMoney(fields.pg_amount ?? '')
      if (amount === null) return { ok: false, reason: 'malformed', detail: 'pg_amount' }
      const currency = fields.pg_currency ?? ''
      if (!/^[A-Z]{3}$/.test(currency)) {
        return { ok: false, reason: 'malformed', detail: 'pg_currency' }
      }
      const reason = fields.pg_failure_description?.slice(0, 200) || 'declined'
      return {
        ok: true,
        event: {
          paymentId,
          transactionId,
          status: result === '1' ? 'paid' : 'failed',
          amount,
          currency,
          canReject: fields.pg_can_reject === '1',
          ...(result === '1' ? {} : { reason }),
        },
      }
    },

    answerWebhook({ status, body, canReject = false }: WebhookAnswer): Response {
      const pgStatus = answerStatus(status, canReject)
      const message =
        body && typeof body === 'object' && 'error' in body && typeof body.error === 'string'
          ? body.error
          : pgStatus === 'ok'
            ? 'Accepted'
            : 'Not accepted'
      const xml = xmlResponse(
        FREEDOMPAY,
        { pg_status: pgStatus, pg_description: message },
        config.secretKey,
      )
      // Freedom Pay calls again on anything but 200 (every half hour for two hours): a decision
      // (ok, rejected) is 200; a callback we could not verify or read, our rate limit or our
      // own failure keeps its status so it is sent again.
      const httpStatus = pgStatus === 'error' ? status : 200
      return new Response(xml, {
        status: httpStatus,
        headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'no-store' },
      })
    },

    async getStatus(payment): Promise<PaymentStatusReport> {
      const providerPaymentId = payment.providerPaymentId ?? payment.transactionId
      // get_status3.php asks by Freedom Pay's id only. Without one the checkout never got a
      // payment page from Freedom Pay, so nobody could have paid it.
      if (!providerPaymentId) return { known: false }
      const answer = await call('get_status3.php', {
        pg_payment_id: providerPaymentId,
        pg_order_id: payment.id,
      })
      if (answer.pg_status !== 'ok') {
        // Every error keeps the payment pending, asked again later, "payment not found" too:
        // Freedom Pay gave it this id, and its pages publish no code table that would let an
        // error code end a payment (docs/payments.md#freedom-pay).
        throw new FreedomPayError(`Freedom Pay get_status3.php: ${describeError(answer)}`)
      }
      if (answer.pg_payment_id !== providerPaymentId) {
        throw new FreedomPayError(
          'Freedom Pay get_status3.php: the answer is about another payment',
        )
      }
      return readStatus(payment.id, providerPaymentId, answer, answer[MESSAGE])
    },

    async refund({ transactionId, amount }) {
      if (!transactionId) return { ok: false, reason: 'no Freedom Pay payment id on record' }
      const answer = await call('revoke.php', {
        pg_payment_id: transactionId,
        pg_refund_amount: toSom(amount),
      })
      if (answer.pg_status !== 'ok') return { ok: false, reason: describeError(answer) }
      return { ok: true, refundId: answer.pg_payment_id ?? transactionId }
    },
  }
}
