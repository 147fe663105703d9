import { createHash } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  initPayment,
  paymentPage,
  paymentStatus,
  payOnPage,
  refuse,
  revokePayment,
} from './freedompay-fake-api.ts'
import type {
  CallbackRecord,
  FakeBehaviour,
  FakeMoneyBack,
  FakePayment,
  Fields,
} from './freedompay-fake-types.ts'
import {
  callbackAnswer,
  callbackMessage,
  md5Signature,
  nodesOf,
  readFields,
  xml,
} from './freedompay-wire.ts'

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
//
// Its records: freedompay-fake-types.ts; its messages: freedompay-wire.ts; its API and payment
// page: freedompay-fake-api.ts.

export type * from './freedompay-fake-types.ts'

/** Freedom Pay calls the result URL again every half hour for two hours after a non-200. */
export const CALLBACK_RETRIES = 4
export const CALLBACK_RETRY_EVERY_MS = 30 * 60_000

export class FreedomPayFake {
  readonly payments = new Map<string, FakePayment>()
  readonly callbacks: CallbackRecord[] = []
  /** Every API request received, with whether its signature was right and when it came. */
  readonly requests: { script: string; fields: Fields; signed: boolean; at: number }[] = []
  /** How the next callbacks and answers go: set with behave(). */
  behaviour: FakeBehaviour = {}
  private server: Server | null = null
  /** The id Freedom Pay gives next (a payment, a refund). */
  nextId = 700_000_000
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
    const { fields, nodes, script, sent, canReject } = callbackMessage(
      payment,
      this.behaviour,
      this.secretKey,
      attempt,
    )
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
    const answer = callbackAnswer(body, script, this.secretKey)
    const record: CallbackRecord = {
      orderId: fields.pg_order_id!,
      fields: Object.fromEntries(
        nodes.filter((n): n is [string, string] => typeof n[1] === 'string'),
      ),
      sent,
      status,
      body,
      pgStatus: answer.fields.pg_status ?? null,
      answerSigned: answer.signed,
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

  private async route(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', this.url)
    const script = url.pathname.slice(1)
    if (request.method === 'GET' && script === 'pay.html') return paymentPage(this, url, response)
    if (request.method === 'POST' && script === 'pay') return payOnPage(this, request, response)
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
    if (!signed) return refuse(this, response, script, '100', 'Invalid signature')
    if (script === 'init_payment.php') return initPayment(this, fields, response)
    if (script === 'get_status3.php') return paymentStatus(this, fields, response)
    return revokePayment(this, fields, response)
  }
}

export async function startFreedomPayFake(
  merchantId = '548856',
  secretKey = 'fake-freedompay-secret-key',
  retryEveryMs = CALLBACK_RETRY_EVERY_MS,
): Promise<FreedomPayFake> {
  return new FreedomPayFake(merchantId, secretKey, retryEveryMs).start()
}
