import { createHash } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

// A local stand-in for Freedom Pay's Merchant API, written from its public protocol, for tests
// only (never the internet): init_payment.php, a hosted payment page with Pay and Decline
// (plain form, no JavaScript), the signed result callback to the merchant, get_status3.php and
// revoke.php. It checks every pg_sig it receives and refuses bad ones, and it can misbehave on
// request (repeat, drop or forge callbacks, or never answer).

type Fields = Record<string, string>

export type FakePayment = {
  /** Freedom Pay's id (pg_payment_id). */
  id: string
  orderId: string
  /** Som with two decimals, as received. */
  amount: string
  currency: string
  description: string
  resultUrl: string
  successUrl: string
  failureUrl: string
  testingMode: string
  /** partial: created, not paid; success; failed; refunded. */
  status: 'partial' | 'success' | 'failed' | 'refunded'
  customer: string
}

export type CallbackRecord = {
  orderId: string
  fields: Fields
  status: number
  body: string
  /** pg_status of the merchant's XML answer, and whether its pg_sig was right. */
  pgStatus: string | null
  answerSigned: boolean
}

/** How the next callbacks are sent; reset with `fake.behave({})`. */
export type FakeBehaviour = {
  /** Send each callback this many times (default 1). */
  repeat?: number
  /** Mark the payment but never call the merchant (a lost callback). */
  dropCallback?: boolean
  /** Sign the callback with a wrong key. */
  wrongSignature?: boolean
  /** Report this amount / currency instead of the payment's. */
  amount?: string
  currency?: string
  /** Report this pg_order_id (a payment the merchant does not know). */
  orderId?: string
  /** Never answer API calls (init_payment, get_status3, revoke): the merchant must time out. */
  hang?: boolean
}

function md5Signature(script: string, fields: Fields, secret: string): string {
  const names = Object.keys(fields)
    .filter((name) => name !== 'pg_sig')
    .sort()
  const line = [script, ...names.map((name) => fields[name]), secret].join(';')
  return createHash('md5').update(line, 'utf8').digest('hex')
}

function xml(fields: Fields): string {
  const escape = (text: string) =>
    text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
  const lines = Object.entries(fields).map(([k, v]) => `<${k}>${escape(v)}</${k}>`)
  return `<?xml version="1.0" encoding="utf-8"?>\n<response>${lines.join('')}</response>`
}

function readFields(request: IncomingMessage): Promise<Fields> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const fields: Fields = {}
      const text = Buffer.concat(chunks).toString('utf8')
      for (const [k, v] of new URLSearchParams(text)) fields[k] = v
      resolve(fields)
    })
    request.on('error', reject)
  })
}

function tagValue(body: string, name: string): string | null {
  const match = new RegExp(`<${name}>([^<]*)</${name}>`).exec(body)
  return match ? match[1]! : null
}

export class FreedomPayFake {
  readonly payments = new Map<string, FakePayment>()
  readonly callbacks: CallbackRecord[] = []
  /** Every API request received, with whether its signature was right. */
  readonly requests: { script: string; fields: Fields; signed: boolean }[] = []
  private behaviour: FakeBehaviour = {}
  private server: Server | null = null
  private nextId = 700_000_000
  private hanging = new Set<ServerResponse>()
  url = ''

  constructor(
    readonly merchantId: string,
    readonly secretKey: string,
  ) {}

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      this.route(request, response).catch((error: unknown) => {
        response.writeHead(500, { 'Content-Type': 'text/plain' })
        response.end(String(error))
      })
    })
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve))
    const { port } = this.server.address() as AddressInfo
    this.url = `http://127.0.0.1:${port}`
    return this
  }

  async stop(): Promise<void> {
    for (const response of this.hanging) response.destroy()
    this.hanging.clear()
    const server = this.server
    this.server = null
    if (!server) return
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }

  behave(behaviour: FakeBehaviour) {
    this.behaviour = behaviour
  }

  byOrder(orderId: string): FakePayment | undefined {
    return [...this.payments.values()].find((p) => p.orderId === orderId)
  }

  /** The payer presses Pay (true) or Decline (false) on the payment page. */
  async decide(payment: FakePayment, pay: boolean): Promise<string> {
    payment.status = pay ? 'success' : 'failed'
    if (!this.behaviour.dropCallback) {
      const times = Math.max(1, this.behaviour.repeat ?? 1)
      for (let i = 0; i < times; i++) await this.sendCallback(payment)
    }
    return pay ? payment.successUrl : payment.failureUrl
  }

  /** Calls the merchant's result URL the way Freedom Pay does (form POST, signed). */
  async sendCallback(payment: FakePayment): Promise<CallbackRecord> {
    const b = this.behaviour
    const paid = payment.status === 'success'
    const fields: Fields = {
      pg_order_id: b.orderId ?? payment.orderId,
      pg_payment_id: payment.id,
      pg_amount: b.amount ?? payment.amount,
      pg_currency: b.currency ?? payment.currency,
      pg_net_amount: b.amount ?? payment.amount,
      pg_ps_amount: b.amount ?? payment.amount,
      pg_ps_full_amount: b.amount ?? payment.amount,
      pg_ps_currency: b.currency ?? payment.currency,
      pg_description: payment.description,
      pg_result: paid ? '1' : '0',
      pg_payment_date: new Date().toISOString().slice(0, 19).replace('T', ' '),
      pg_can_reject: '1',
      pg_testing_mode: payment.testingMode,
      pg_salt: `salt${Math.random().toString(36).slice(2)}`,
      ...(paid
        ? { pg_card_pan: '4405-64XX-XXXX-6150', pg_captured: '1' }
        : { pg_failure_code: '101', pg_failure_description: 'Card declined' }),
    }
    const script = new URL(payment.resultUrl).pathname.split('/').filter(Boolean).pop() ?? ''
    fields.pg_sig = md5Signature(script, fields, b.wrongSignature ? 'wrong-key' : this.secretKey)
    const response = await fetch(payment.resultUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    })
    const body = await response.text()
    const answer: Fields = {}
    for (const name of ['pg_status', 'pg_description', 'pg_salt', 'pg_sig']) {
      const value = tagValue(body, name)
      if (value !== null) answer[name] = value
    }
    const record: CallbackRecord = {
      orderId: fields.pg_order_id!,
      fields,
      status: response.status,
      body,
      pgStatus: answer.pg_status ?? null,
      answerSigned:
        Boolean(answer.pg_sig) && md5Signature(script, answer, this.secretKey) === answer.pg_sig,
    }
    this.callbacks.push(record)
    return record
  }

  private send(response: ServerResponse, fields: Fields, script: string) {
    const signed: Fields = { ...fields, pg_salt: `s${this.nextId}` }
    signed.pg_sig = md5Signature(script, signed, this.secretKey)
    response.writeHead(200, { 'Content-Type': 'application/xml; charset=utf-8' })
    response.end(xml(signed))
  }

  private error(response: ServerResponse, script: string, code: string, description: string) {
    this.send(
      response,
      { pg_status: 'error', pg_error_code: code, pg_error_description: description },
      script,
    )
  }

  private async route(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', this.url)
    const script = url.pathname.slice(1)
    if (request.method === 'GET' && script === 'pay.html') return this.page(url, response)
    if (request.method === 'POST' && script === 'pay') return this.pay(request, response)
    const api = ['init_payment.php', 'get_status3.php', 'revoke.php']
    if (request.method !== 'POST' || !api.includes(script)) {
      response.writeHead(404, { 'Content-Type': 'text/plain' })
      response.end('not found')
      return
    }
    const fields = await readFields(request)
    const signed =
      Boolean(fields.pg_sig) && md5Signature(script, fields, this.secretKey) === fields.pg_sig
    this.requests.push({ script, fields, signed })
    if (this.behaviour.hang) {
      this.hanging.add(response)
      return
    }
    if (!signed) return this.error(response, script, '9998', 'Invalid signature')
    if (fields.pg_merchant_id !== this.merchantId) {
      return this.error(response, script, '9997', 'Unknown merchant')
    }
    if (script === 'init_payment.php') return this.init(fields, response)
    if (script === 'get_status3.php') return this.status(fields, response)
    return this.revoke(fields, response)
  }

  private init(fields: Fields, response: ServerResponse) {
    const script = 'init_payment.php'
    for (const name of ['pg_order_id', 'pg_amount', 'pg_description', 'pg_salt']) {
      if (!fields[name]) return this.error(response, script, '9000', `${name} is required`)
    }
    const id = String(this.nextId++)
    const customer = createHash('md5').update(`${id}:${fields.pg_order_id}`).digest('hex')
    this.payments.set(id, {
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
      customer,
    })
    this.send(
      response,
      {
        pg_status: 'ok',
        pg_payment_id: id,
        pg_redirect_url: `${this.url}/pay.html?customer=${customer}`,
        pg_redirect_url_type: 'need data',
      },
      script,
    )
  }

  private byCustomer(customer: string | null) {
    return [...this.payments.values()].find((p) => p.customer === customer)
  }

  private page(url: URL, response: ServerResponse) {
    const payment = this.byCustomer(url.searchParams.get('customer'))
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

  private async pay(request: IncomingMessage, response: ServerResponse) {
    const fields = await readFields(request)
    const payment = this.byCustomer(fields.customer ?? null)
    if (!payment || payment.status !== 'partial') {
      response.writeHead(409, { 'Content-Type': 'text/plain' })
      response.end('this payment is closed')
      return
    }
    const next = await this.decide(payment, fields.result === '1')
    response.writeHead(303, { Location: next })
    response.end()
  }

  private status(fields: Fields, response: ServerResponse) {
    const script = 'get_status3.php'
    const payment = fields.pg_payment_id
      ? this.payments.get(fields.pg_payment_id)
      : this.byOrder(fields.pg_order_id ?? '')
    if (!payment || (fields.pg_order_id && payment.orderId !== fields.pg_order_id)) {
      return this.error(response, script, '340', 'Payment not found')
    }
    this.send(
      response,
      {
        pg_status: 'ok',
        pg_payment_id: payment.id,
        pg_order_id: payment.orderId,
        pg_amount: payment.amount,
        pg_currency: payment.currency,
        pg_can_reject: '1',
        pg_payment_method: 'bankcard',
        pg_payment_status: payment.status,
        pg_create_date: '2025-01-01 00:00:00',
      },
      script,
    )
  }

  private revoke(fields: Fields, response: ServerResponse) {
    const script = 'revoke.php'
    const payment = this.payments.get(fields.pg_payment_id ?? '')
    if (!payment) return this.error(response, script, '340', 'Payment not found')
    if (payment.status !== 'success') {
      return this.error(response, script, '350', 'Payment cannot be refunded')
    }
    if (fields.pg_refund_amount && fields.pg_refund_amount !== payment.amount) {
      return this.error(response, script, '351', 'Only the whole amount here')
    }
    payment.status = 'refunded'
    this.send(response, { pg_status: 'ok', pg_payment_id: payment.id }, script)
  }
}

export async function startFreedomPayFake(
  merchantId = '548856',
  secretKey = 'fake-freedompay-secret-key',
): Promise<FreedomPayFake> {
  return new FreedomPayFake(merchantId, secretKey).start()
}
