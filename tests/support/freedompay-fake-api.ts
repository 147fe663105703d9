import { createHash } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FakeMoneyBack, FakeNode, FakeServer, Fields } from './freedompay-fake-types.ts'
import { md5Signature, nodesOf, readFields, xml } from './freedompay-wire.ts'

// What the local Freedom Pay (freedompay-fake.ts) answers: its API scripts init_payment.php,
// get_status3.php and revoke.php, and its payment page with Pay and Decline.

/** An answer of the API, signed as the behaviour says. */
function answer(fake: FakeServer, response: ServerResponse, nodes: FakeNode[], script: string) {
  const mode = fake.behaviour.answers ?? 'signed'
  const salted: FakeNode[] = [...nodes]
  if (mode !== 'unsigned') {
    salted.push(['pg_salt', `s${fake.nextId}`])
    const key = mode === 'wrongKey' ? 'another-secret-key' : fake.secretKey
    salted.push(['pg_sig', md5Signature(script, salted, key)])
  }
  response.writeHead(200, { 'Content-Type': 'application/xml; charset=utf-8' })
  response.end(xml(salted))
}

export function refuse(
  fake: FakeServer,
  response: ServerResponse,
  script: string,
  code: string,
  description: string,
) {
  answer(
    fake,
    response,
    nodesOf({ pg_status: 'error', pg_error_code: code, pg_error_description: description }),
    script,
  )
}

/** init_payment.php: a new payment, and the address of its payment page. */
export function initPayment(fake: FakeServer, fields: Fields, response: ServerResponse) {
  const script = 'init_payment.php'
  for (const name of ['pg_order_id', 'pg_amount', 'pg_description', 'pg_salt']) {
    if (!fields[name]) return refuse(fake, response, script, '200', `${name} is required`)
  }
  const id = String(fake.nextId++)
  const customer = createHash('md5').update(`${id}:${fields.pg_order_id}`).digest('hex')
  fake.payments.set(id, {
    id,
    orderId: fields.pg_order_id!,
    amount: fields.pg_amount!,
    currency: fields.pg_currency ?? 'KZT',
    description: fields.pg_description!,
    resultUrl: fields.pg_result_url ?? '',
    successUrl: fields.pg_success_url ?? '',
    failureUrl: fields.pg_failure_url ?? '',
    testingMode: fields.pg_testing_mode ?? '0',
    status: 'partial',
    refunds: [],
    revocations: [],
    customer,
  })
  answer(
    fake,
    response,
    nodesOf({
      pg_status: 'ok',
      pg_payment_id: id,
      pg_redirect_url: `${fake.url}/pay.html?customer=${customer}`,
      pg_redirect_url_type: 'need data',
    }),
    script,
  )
}

function byCustomer(fake: FakeServer, customer: string | null) {
  return [...fake.payments.values()].find((p) => p.customer === customer)
}

/** The payment page: the payment's description and amount, Pay and Decline. */
export function paymentPage(fake: FakeServer, url: URL, response: ServerResponse) {
  const payment = byCustomer(fake, url.searchParams.get('customer'))
  if (!payment) {
    response.writeHead(404, { 'Content-Type': 'text/plain' })
    response.end('unknown payment')
    return
  }
  const escape = (text: string) =>
    text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;')
  response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
  response.end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Freedom Pay test page</title></head>
<body><main>
<h1>Freedom Pay (local test)</h1>
<p id="description">${escape(payment.description)}</p>
<p id="amount">${escape(payment.amount)} ${escape(payment.currency)}</p>
<form method="post" action="/pay">
<input type="hidden" name="customer" value="${payment.customer}">
<button type="submit" name="result" value="1">Pay</button>
<button type="submit" name="result" value="0">Decline</button>
</form>
</main></body></html>`)
}

/** The payer pressed Pay or Decline on the payment page. */
export async function payOnPage(
  fake: FakeServer,
  request: IncomingMessage,
  response: ServerResponse,
) {
  const fields = await readFields(request)
  const payment = byCustomer(fake, fields.customer ?? null)
  if (!payment || payment.status !== 'partial') {
    response.writeHead(409, { 'Content-Type': 'text/plain' })
    response.end('this payment is closed')
    return
  }
  const next = await fake.decide(payment, fields.result === '1')
  response.writeHead(303, { Location: next })
  response.end()
}

/**
 * get_status3.php, by pg_payment_id only, answered in the shape of Freedom Pay's "after
 * payment" page: a refunded payment is still `success`, with its refunds nested in
 * pg_refund_payments and their sum, negative, in pg_refund_amount.
 */
export function paymentStatus(fake: FakeServer, fields: Fields, response: ServerResponse) {
  const script = 'get_status3.php'
  if (!fields.pg_payment_id) {
    return refuse(fake, response, script, '200', 'pg_payment_id is required')
  }
  if (fake.behaviour.statusError) {
    return refuse(fake, response, script, fake.behaviour.statusError, 'Try again later')
  }
  const payment = fake.payments.get(fields.pg_payment_id)
  if (!payment) return refuse(fake, response, script, '340', 'Payment not found')
  const list = (name: string, backs: FakeMoneyBack[]): FakeNode[] =>
    backs.length === 0
      ? []
      : [
          [
            `${name}s`,
            backs.map((back): FakeNode => [
              name,
              nodesOf({
                pg_payment_id: back.id,
                pg_payment_status: 'success',
                pg_amount: `-${back.amount}`,
                pg_payment_date: back.date,
                pg_reference: back.id,
              }),
            ]),
          ],
        ]
  const refunded = payment.refunds.reduce((sum, back) => sum + Number(back.amount), 0)
  const paid = payment.status === 'success'
  answer(
    fake,
    response,
    [
      ...nodesOf({
        pg_status: 'ok',
        pg_payment_id: payment.id,
        pg_can_reject: '1',
        pg_payment_method: 'bankcard',
        pg_amount: payment.amount,
        pg_currency: payment.currency,
        pg_payment_status: payment.status,
        ...(paid
          ? {
              pg_clearing_amount: payment.amount,
              pg_reference: payment.id,
              pg_card_pan: '4405-64XX-XXXX-6150',
            }
          : {}),
      }),
      ...list('pg_refund_payment', payment.refunds),
      ...list('pg_revoked_payment', payment.revocations),
      ...(payment.refunds.length ? nodesOf({ pg_refund_amount: `-${refunded.toFixed(2)}` }) : []),
      ...nodesOf(paid ? { pg_captured: '1' } : {}),
      ['pg_create_date', '2025-01-01 00:00:00'],
    ],
    script,
  )
}

/** revoke.php: refunds the whole payment, or pg_refund_amount of it. */
export function revokePayment(fake: FakeServer, fields: Fields, response: ServerResponse) {
  const script = 'revoke.php'
  const payment = fake.payments.get(fields.pg_payment_id ?? '')
  if (!payment) return refuse(fake, response, script, '340', 'Payment not found')
  const amount = fields.pg_refund_amount ?? payment.amount
  if (!fake.refund(payment, amount)) {
    return refuse(fake, response, script, '490', 'Payment cannot be refunded')
  }
  answer(fake, response, nodesOf({ pg_status: 'ok', pg_payment_id: payment.id }), script)
}
