import { createHash } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

// A local stand-in for Freedom Pay's Merchant API, written from its public protocol, for tests
// only (never the internet): init_payment.php, a hosted payment page with Pay and Decline
// (plain form, no JavaScript), the signed result callback to the merchant, get_status3.php and
// revoke.php. It checks every pg_sig it receives and refuses bad ones, and it can misbehave on
// request (repeat, drop or forge callbacks, or never answer).
//
// Money given back is reported as Freedom Pay's "after payment" page shows it
// (docs/payments.md#freedom-pay): the payment keeps pg_payment_status=success, and its refunds
// come as a nested pg_refund_payments list with a negative pg_refund_amount (revoked money,
// Freedom Pay taking a payment back, as a pg_revoked_payments list). There is no top-level
// "refunded" or "revoked" status.

type Fields = Record<string, string>
/** A field of a message: a value, or fields inside it (nested XML tags, `a[b]=` form fields). */
export type FakeNode = [name: string, value: string | FakeNode[]]

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
  /** pg_payment_status: partial (created, not paid), success, failed. */
  status: 'partial' | 'success' | 'failed'
  /** Refunds (revoke.php, the merchant's console): pg_refund_payments. */
  refunds: FakeMoneyBack[]
  /** Freedom Pay took the payment back (a merchant's `rejected`): pg_revoked_payments. */
  revocations: FakeMoneyBack[]
  customer: string
}

/** One refund or revocation of a payment: its own payment id, som given back, when. */
export type FakeMoneyBack = { id: string; amount: string; date: string }

export type CallbackRecord = {
  orderId: string
  fields: Fields
  /** The body as sent (form-encoded, nested fields as `a[b]=`). */
  sent: string
  /** HTTP status of the merchant's answer; 0 when it could not be reached. */
  status: number
  body: string
  /** pg_status of the merchant's XML answer, and whether its pg_sig was right. */
  pgStatus: string | null
  answerSigned: boolean
  /** 0 for the first call, 1… for the retries after an answer that was not 200. */
  attempt: number
}

/** How the next callbacks and answers go; reset with `fake.behave({})`. */
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
  /** pg_can_reject in the callback (default 1). */
  canReject?: '0' | '1'
  /** More fields for the callback, nested or repeated ones too. */
  extra?: FakeNode[]
  /** Never answer API calls (init_payment, get_status3, revoke): the merchant must time out. */
  hang?: boolean
  /** API answers unsigned, or signed with another key (a forger, a man in the middle). */
  answers?: 'signed' | 'unsigned' | 'wrongKey'
  /** get_status3.php answers this error instead of the status (say 600, a general error). */
  statusError?: string
}

/**
 * Freedom Pay's signature, written here apart from the app's on purpose: every field renamed to
 * its name and 1-based position (three digits) behind its parent's new name, the leaves sorted
 * by those names, then md5(script;values…;secret), as Freedom Pay's own client library does.
 */
function flatLeaves(nodes: FakeNode[], parent = ''): [string, string][] {
  return nodes.flatMap(([name, value], index): [string, string][] => {
    if (name === 'pg_sig') return []
    const key = `${parent}${name}${String(index + 1).padStart(3, '0')}`
    return typeof value === 'string' ? [[key, value]] : flatLeaves(value, key)
  })
}

function md5Signature(script: string, nodes: FakeNode[], secret: string): string {
  const values = flatLeaves(nodes)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, value]) => value)
  return createHash('md5')
    .update([script, ...values, secret].join(';'), 'utf8')
    .digest('hex')
}

const nodesOf = (fields: Fields): FakeNode[] => Object.entries(fields)

function xml(nodes: FakeNode[]): string {
  const escape = (text: string) =>
    text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
  const render = (list: FakeNode[]): string =>
    list.map(([k, v]) => `<${k}>${typeof v === 'string' ? escape(v) : render(v)}</${k}>`).join('')
  return `<?xml version="1.0" encoding="utf-8"?>\n<response>${render(nodes)}</response>`
}

/** A form body the way PHP's http_build_query writes nested fields: `a[b][c]=v`. */
function formBody(nodes: FakeNode[]): string {
  const pairs: [string, string][] = []
  const walk = (list: FakeNode[], prefix: string | null) => {
    for (const [name, value] of list) {
      const key = prefix === null ? name : `${prefix}[${name}]`
      if (typeof value === 'string') pairs.push([key, value])
      else walk(value, key)
    }
  }
  walk(nodes, null)
  return new URLSearchParams(pairs).toString()
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

/** Freedom Pay calls the result URL again every half hour for two hours after a non-200. */
export const CALLBACK_RETRIES = 4
export const CALLBACK_RETRY_EVERY_MS = 30 * 60_000

export class FreedomPayFake {
  readonly payments = new Map<string, FakePayment>()
  readonly callbacks: CallbackRecord[] = []
  /** Every API request received, with whether its signature was right and when it came. */
  readonly requests: { script: string; fields: Fields; signed: boolean; at: number }[] = []
  private behaviour: FakeBehaviour = {}
  private server: Server | null = null
  private nextId = 700_000_000
  private hanging = new Set<ServerResponse>()
  private retries = new Set<NodeJS.Timeout>()
  private pending = new Set<Promise<unknown>>()
  url = ''

  constructor(
    readonly merchantId: string,
    readonly secretKey: string,
    /** The retry schedule's half hour, shortened for tests. */
    readonly retryEveryMs = CALLBACK_RETRY_EVERY_MS,
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
    for (const timer of this.retries) clearTimeout(timer)
    this.retries.clear()
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

  /** Resolves once no callback retry is scheduled or under way. */
  async retriesDone(): Promise<void> {
    while (this.retries.size > 0 || this.pending.size > 0) {
      await Promise.all([...this.pending])
      if (this.retries.size > 0) await new Promise((resolve) => setTimeout(resolve, 5))
    }
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

  /**
   * The payer pays the same checkout a second time (its page opened twice): a second Freedom
   * Pay payment for the same pg_order_id, paid, its callback sent as the behaviour says.
   */
  async chargeAgain(payment: FakePayment): Promise<FakePayment> {
    const id = String(this.nextId++)
    const again: FakePayment = {
      ...payment,
      id,
      status: 'partial',
      refunds: [],
      revocations: [],
      customer: createHash('md5').update(`${id}:${payment.orderId}`).digest('hex'),
    }
    this.payments.set(id, again)
    await this.decide(again, true)
    return again
  }

  /** Freedom Pay takes a paid payment back (the merchant answered `rejected`, a chargeback). */
  revoke(payment: FakePayment) {
    payment.revocations.push(this.moneyBack(payment.amount))
  }

  /**
   * The merchant refunds `amount` (som, two decimals; the whole payment by default) in Freedom
   * Pay's console, as revoke.php does. False when the payment is not paid or has less left.
   */
  refund(payment: FakePayment, amount = payment.amount): boolean {
    const cents = (som: string) => Math.round(Number(som) * 100)
    const left = cents(payment.amount) - this.givenBack(payment)
    if (payment.status !== 'success' || cents(amount) <= 0 || cents(amount) > left) return false
    payment.refunds.push(this.moneyBack(amount))
    return true
  }

  /** Tyiyn given back on a payment so far, by refunds and revocations. */
  givenBack(payment: FakePayment): number {
    return [...payment.refunds, ...payment.revocations].reduce(
      (sum, back) => sum + Math.round(Number(back.amount) * 100),
      0,
    )
  }

  private moneyBack(amount: string): FakeMoneyBack {
    const date = new Date().toISOString().slice(0, 19).replace('T', ' ')
    return { id: String(this.nextId++), amount, date }
  }

  /** Calls the merchant's result URL the way Freedom Pay does (form POST, signed). */
  async sendCallback(payment: FakePayment, attempt = 0): Promise<CallbackRecord> {
    const b = this.behaviour
    const paid = payment.status === 'success'
    const canReject = attempt === 0 ? (b.canReject ?? '1') : '0'
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
      // Only the first call lets the merchant refuse the money (a retry no longer does).
      pg_can_reject: canReject,
      pg_testing_mode: payment.testingMode,
      pg_salt: `salt${Math.random().toString(36).slice(2)}`,
      ...(paid
        ? { pg_card_pan: '4405-64XX-XXXX-6150', pg_captured: '1' }
        : { pg_failure_code: '101', pg_failure_description: 'Card declined' }),
    }
    const nodes: FakeNode[] = [...nodesOf(fields), ...(b.extra ?? [])]
    const script = new URL(payment.resultUrl).pathname.split('/').filter(Boolean).pop() ?? ''
    nodes.push([
      'pg_sig',
      md5Signature(script, nodes, b.wrongSignature ? 'wrong-key' : this.secretKey),
    ])
    const sent = formBody(nodes)
    let status = 0
    let body = ''
    try {
      const response = await fetch(payment.resultUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: sent,
      })
      status = response.status
      body = await response.text()
    } catch {
      // The merchant could not be reached: retried like any answer that is not 200.
    }
    const answer: Fields = {}
    for (const name of ['pg_status', 'pg_description', 'pg_salt', 'pg_sig']) {
      const value = tagValue(body, name)
      if (value !== null) answer[name] = value
    }
    const unsigned = { ...answer }
    delete unsigned.pg_sig
    const record: CallbackRecord = {
      orderId: fields.pg_order_id!,
      fields: Object.fromEntries(
        nodes.filter((n): n is [string, string] => typeof n[1] === 'string'),
      ),
      sent,
      status,
      body,
      pgStatus: answer.pg_status ?? null,
      answerSigned:
        Boolean(answer.pg_sig) &&
        md5Signature(script, nodesOf(unsigned), this.secretKey) === answer.pg_sig,
      attempt,
    }
    this.callbacks.push(record)
    if (status !== 200) this.scheduleRetry(payment, attempt)
    else if (record.pgStatus === 'rejected' && canReject === '1' && record.answerSigned) {
      // The merchant refused money it was allowed to refuse: Freedom Pay takes it back.
      this.revoke(payment)
    }
    return record
  }

  private scheduleRetry(payment: FakePayment, attempt: number) {
    if (attempt >= CALLBACK_RETRIES) return
    const timer = setTimeout(() => {
      this.retries.delete(timer)
      const sending = this.sendCallback(payment, attempt + 1).catch(() => undefined)
      this.pending.add(sending)
      void sending.finally(() => this.pending.delete(sending))
    }, this.retryEveryMs)
    this.retries.add(timer)
  }

  private send(response: ServerResponse, nodes: FakeNode[], script: string) {
    const mode = this.behaviour.answers ?? 'signed'
    const salted: FakeNode[] = [...nodes]
    if (mode !== 'unsigned') {
      salted.push(['pg_salt', `s${this.nextId}`])
      const key = mode === 'wrongKey' ? 'another-secret-key' : this.secretKey
      salted.push(['pg_sig', md5Signature(script, salted, key)])
    }
    response.writeHead(200, { 'Content-Type': 'application/xml; charset=utf-8' })
    response.end(xml(salted))
  }

  private error(response: ServerResponse, script: string, code: string, description: string) {
    this.send(
      response,
      nodesOf({ pg_status: 'error', pg_error_code: code, pg_error_description: description }),
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
      Boolean(fields.pg_sig) &&
      md5Signature(script, nodesOf(fields), this.secretKey) === fields.pg_sig
    this.requests.push({ script, fields, signed, at: Date.now() })
    if (this.behaviour.hang) {
      this.hanging.add(response)
      return
    }
    if (fields.pg_merchant_id !== this.merchantId) {
      // The one answer Freedom Pay cannot sign: it does not know whose key to use.
      response.writeHead(200, { 'Content-Type': 'application/xml; charset=utf-8' })
      response.end(
        xml(
          nodesOf({
            pg_status: 'error',
            pg_error_code: '9998',
            pg_error_description: 'Unknown merchant',
          }),
        ),
      )
      return
    }
    if (!signed) return this.error(response, script, '100', 'Invalid signature')
    if (script === 'init_payment.php') return this.init(fields, response)
    if (script === 'get_status3.php') return this.status(fields, response)
    return this.revoke_(fields, response)
  }

  private init(fields: Fields, response: ServerResponse) {
    const script = 'init_payment.php'
    for (const name of ['pg_order_id', 'pg_amount', 'pg_description', 'pg_salt']) {
      if (!fields[name]) return this.error(response, script, '200', `${name} is required`)
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
      refunds: [],
      revocations: [],
      customer,
    })
    this.send(
      response,
      nodesOf({
        pg_status: 'ok',
        pg_payment_id: id,
        pg_redirect_url: `${this.url}/pay.html?customer=${customer}`,
        pg_redirect_url_type: 'need data',
      }),
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

  /**
   * get_status3.php, by pg_payment_id only, answered in the shape of Freedom Pay's "after
   * payment" page: a refunded payment is still `success`, with its refunds nested in
   * pg_refund_payments and their sum, negative, in pg_refund_amount.
   */
  private status(fields: Fields, response: ServerResponse) {
    const script = 'get_status3.php'
    if (!fields.pg_payment_id) {
      return this.error(response, script, '200', 'pg_payment_id is required')
    }
    if (this.behaviour.statusError) {
      return this.error(response, script, this.behaviour.statusError, 'Try again later')
    }
    const payment = this.payments.get(fields.pg_payment_id)
    if (!payment) return this.error(response, script, '340', 'Payment not found')
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
    this.send(
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
  private revoke_(fields: Fields, response: ServerResponse) {
    const script = 'revoke.php'
    const payment = this.payments.get(fields.pg_payment_id ?? '')
    if (!payment) return this.error(response, script, '340', 'Payment not found')
    const amount = fields.pg_refund_amount ?? payment.amount
    if (!this.refund(payment, amount)) {
      return this.error(response, script, '490', 'Payment cannot be refunded')
    }
    this.send(response, nodesOf({ pg_status: 'ok', pg_payment_id: payment.id }), script)
  }
}

export async function startFreedomPayFake(
  merchantId = '548856',
  secretKey = 'fake-freedompay-secret-key',
  retryEveryMs = CALLBACK_RETRY_EVERY_MS,
): Promise<FreedomPayFake> {
  return new FreedomPayFake(merchantId, secretKey, retryEveryMs).start()
}
