import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { getEnv } from '~/utils/env.server.ts'
import { parseMoney } from '~/utils/money.ts'
import type {
  PaymentEvent,
  PaymentProvider,
  PaymentStatusReport,
  WebhookAnswer,
  WebhookParse,
} from './provider.server.ts'

// Freedom Pay (formerly PayBox), the Merchant API, in KGS (docs/payments.md):
// - every request is form-encoded `pg_*` fields signed with `pg_sig`: the MD5 of the script
//   name, the values of the other fields sorted by field name, and the secret key, joined by
//   `;` (pg_salt is a random string that makes each signature different);
// - init_payment.php gives the hosted payment page (pg_redirect_url) in an XML <response>;
// - its server then calls our result URL (/api/payments/webhook/freedompay) with the outcome
//   (pg_result 1 or 0), signed with the script name `freedompay`, the last segment of that URL,
//   and wants a signed XML <response> with pg_status ok / rejected / error back;
// - get_status3.php tells how a payment stands; revoke.php refunds it.

export const FREEDOMPAY = 'freedompay'
/** Any call to Freedom Pay's API that takes longer than this is abandoned with an error. */
export const FREEDOMPAY_TIMEOUT_MS = 10_000

export type FreedomPayConfig = {
  merchantId: string
  secretKey: string
  /** Base URL of the API (`https://api.freedompay.kg`); tests point it at a local fake. */
  apiUrl: string
  testMode: boolean
  timeoutMs?: number
  fetch?: typeof fetch
}

export type PgFields = Record<string, string>

/** `pg_sig` for `fields` (pg_sig itself is left out) sent to or from `script`. */
export function pgSignature(script: string, fields: PgFields, secretKey: string): string {
  const values = Object.keys(fields)
    .filter((name) => name !== 'pg_sig')
    .sort()
    .map((name) => fields[name])
  return createHash('md5')
    .update([script, ...values, secretKey].join(';'))
    .digest('hex')
}

/** Whether `fields.pg_sig` is right for `script`, compared in constant time. */
export function pgSignatureValid(script: string, fields: PgFields, secretKey: string): boolean {
  const given = fields.pg_sig
  if (!given || !/^[0-9a-f]{32}$/i.test(given)) return false
  const expected = Buffer.from(pgSignature(script, fields, secretKey), 'hex')
  return timingSafeEqual(expected, Buffer.from(given.toLowerCase(), 'hex'))
}

export function pgSalt(): string {
  return randomBytes(12).toString('hex')
}

/** Adds pg_salt and pg_sig for `script`. */
export function signFields(script: string, fields: PgFields, secretKey: string): PgFields {
  const salted = { ...fields, pg_salt: fields.pg_salt ?? pgSalt() }
  return { ...salted, pg_sig: pgSignature(script, salted, secretKey) }
}

const XML_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
}

function unescapeXml(text: string): string {
  return text
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, '$1')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name.startsWith('#x') || name.startsWith('#X')) {
        return String.fromCodePoint(parseInt(name.slice(2), 16))
      }
      if (name.startsWith('#')) return String.fromCodePoint(parseInt(name.slice(1), 10))
      return XML_ENTITIES[name.toLowerCase()] ?? whole
    })
}

export function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
}

/**
 * The direct children of a `<response>` as name → text; nested lists (pg_refund_payments and
 * the like) are skipped. Null when the text is not such a document.
 */
export function parseXmlResponse(xml: string): PgFields | null {
  const start = xml.search(/<response(\s[^>]*)?>/)
  const end = xml.lastIndexOf('</response>')
  if (start < 0 || end < start) return null
  const inner = xml.slice(xml.indexOf('>', start) + 1, end)
  const fields: PgFields = {}
  const tag = /<(\/?)([A-Za-z_][\w.-]*)[^>]*?(\/?)>/g
  let depth = 0
  let open: { name: string; from: number; nested: boolean } | null = null
  for (let match = tag.exec(inner); match; match = tag.exec(inner)) {
    const [whole, closing, name, selfClosing] = match
    if (selfClosing) {
      if (depth === 0) fields[name!] = ''
      else if (open) open.nested = true
      continue
    }
    if (!closing) {
      if (depth === 0) open = { name: name!, from: match.index + whole.length, nested: false }
      else if (open) open.nested = true
      depth++
      continue
    }
    depth--
    if (depth < 0) return null
    if (depth === 0 && open && open.name === name) {
      if (!open.nested) fields[name] = unescapeXml(inner.slice(open.from, match.index).trim())
      open = null
    }
  }
  return depth === 0 ? fields : null
}

/** A signed `<response>` in Freedom Pay's format, for `script`. */
export function xmlResponse(script: string, fields: PgFields, secretKey: string): string {
  const signed = signFields(script, fields, secretKey)
  const body = Object.entries(signed)
    .map(([name, value]) => `  <${name}>${escapeXml(value)}</${name}>`)
    .join('\n')
  return `<?xml version="1.0" encoding="utf-8"?>\n<response>\n${body}\n</response>\n`
}

export class FreedomPayError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'FreedomPayError'
  }
}

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
function answerStatus(status: number): 'ok' | 'rejected' | 'error' {
  if (status >= 200 && status < 300) return 'ok'
  // Unknown payment, amount or currency not ours, transaction of another payment, account
  // gone: we do not accept it (Freedom Pay revokes it when it still can).
  if (status === 404 || status === 409) return 'rejected'
  return 'error'
}

export function freedomPayProvider(config: FreedomPayConfig = configFromEnv()): PaymentProvider {
  const base = config.apiUrl.replace(/\/+$/, '')
  const timeoutMs = config.timeoutMs ?? FREEDOMPAY_TIMEOUT_MS
  const doFetch = config.fetch ?? fetch

  /** POSTs a signed request to `script` and returns its XML answer's fields. */
  async function call(script: string, fields: PgFields): Promise<PgFields> {
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
    const parsed = parseXmlResponse(text)
    if (!parsed) {
      throw new FreedomPayError(`Freedom Pay ${script}: HTTP ${status}, the answer is not XML`)
    }
    return parsed
  }

  const describeError = (fields: PgFields) =>
    [fields.pg_error_code, fields.pg_error_description ?? fields.pg_description]
      .filter(Boolean)
      .join(' ') || 'error'

  function eventFromStatus(
    paymentId: string,
    fields: PgFields,
    status: PaymentEvent['status'],
  ): PaymentEvent | null {
    const amount = parseMoney(fields.pg_amount ?? '')
    if (amount === null || !fields.pg_payment_id || !fields.pg_currency) return null
    return {
      paymentId,
      transactionId: fields.pg_payment_id,
      status,
      amount,
      currency: fields.pg_currency,
      ...(status === 'paid' ? {} : { reason: fields.pg_failure_description ?? status }),
    }
  }

  return {
    name: FREEDOMPAY,

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
      if (answer.pg_status !== 'ok' || !answer.pg_redirect_url) {
        throw new FreedomPayError(`Freedom Pay init_payment.php refused: ${describeError(answer)}`)
      }
      return { url: answer.pg_redirect_url }
    },

    parseWebhook(rawBody): WebhookParse {
      const fields: PgFields = {}
      for (const [name, value] of new URLSearchParams(rawBody)) fields[name] = value
      if (!pgSignatureValid(FREEDOMPAY, fields, config.secretKey)) {
        return { ok: false, reason: 'signature' }
      }
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
          ...(result === '1' ? {} : { reason }),
        },
      }
    },

    answerWebhook({ status, body }: WebhookAnswer): Response {
      const pgStatus = answerStatus(status)
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
      // Freedom Pay calls again on anything but 200: only our own trouble (rate limit, server
      // error) asks for that; the decision itself is in pg_status.
      const httpStatus = status === 429 || status >= 500 ? status : 200
      return new Response(xml, {
        status: httpStatus,
        headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'no-store' },
      })
    },

    async getStatus(payment): Promise<PaymentStatusReport> {
      const answer = await call('get_status3.php', {
        pg_order_id: payment.id,
        ...(payment.transactionId ? { pg_payment_id: payment.transactionId } : {}),
      })
      // Freedom Pay answers `error` for a payment it has no record of (never initialised, or
      // initialised with another merchant id).
      if (answer.pg_status !== 'ok') return { known: false }
      const state = answer.pg_payment_status ?? answer.pg_transaction_status ?? ''
      const settled = (status: PaymentEvent['status']): PaymentStatusReport => {
        const event = eventFromStatus(payment.id, answer, status)
        if (!event) throw new FreedomPayError('Freedom Pay get_status3.php: incomplete answer')
        return { known: true, status: 'settled', event }
      }
      switch (state) {
        // Refunded or revoked later too: it was paid first, and paid is final for us.
        case 'success':
        case 'ok':
        case 'revoked':
        case 'refunded':
          return settled('paid')
        case 'error':
        case 'failed':
          return settled('failed')
        case 'incomplete':
          return settled('cancelled')
        default:
          // partial (the payer has not paid yet), pending, or a state we do not know.
          return { known: true, status: 'pending' }
      }
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
