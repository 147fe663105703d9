import { createHmac } from 'node:crypto'
import { afterAll, describe, expect, inject, test } from 'vitest'
import { createRedis, Engine } from '../../engine/index.ts'
import { newAccount } from './api.ts'
import { e2eDatabase } from './auctions.ts'
import { balance, createPayableOrder, paymentRow, topupLedger } from './payment-records.ts'
import { buyPackage, checkout, postForm, SECRET, txn, webhook } from './payments.ts'
import { secondServer } from './second-server.ts'

// Payments end to end against the production build: checkout, the sandbox's signed webhook
// (computed here from the secret global-setup gives the server), crediting exactly once, what a
// forged or wrong notification gets, and a flood of forgeries.

const prisma = e2eDatabase()
const redis = createRedis(inject('e2eRedisUrl'))
afterAll(async () => {
  await redis.quit()
})

describe('payments API', () => {
  test('a paid webhook credits once; three replays change nothing; ledger and balance agree', async () => {
    const user = await newAccount()
    const paymentId = await buyPackage(user.cookie)
    expect(await paymentRow(paymentId)).toMatchObject({
      status: 'pending',
      purpose: 'package',
      packageId: 'bids-50',
      bids: 50,
      amount: 750_00,
      currency: 'KGS',
      userId: user.id,
    })
    const transaction_id = txn()
    const first = await webhook({ payment_id: paymentId, transaction_id })
    expect(first).toEqual({ status: 200, json: { ok: true, paymentId, status: 'paid' } })
    for (let i = 0; i < 3; i++) {
      const replay = await webhook({ payment_id: paymentId, transaction_id })
      expect(replay.status).toBe(200)
      expect(replay.json).toMatchObject({ ok: true, duplicate: true })
    }
    expect(await balance(user.cookie)).toBe(5 + 50)
    expect(await topupLedger(user.id, 1)).toEqual([
      { amount: 50, reference: `payment:${paymentId}` },
    ])
    expect(await paymentRow(paymentId)).toMatchObject({
      status: 'paid',
      providerTxnId: transaction_id,
      failureReason: null,
    })
    expect((await paymentRow(paymentId)).paidAt).toBeInstanceOf(Date)
  })

  test('a crash after crediting is finished by the retry without a second credit', async () => {
    const user = await newAccount()
    const paymentId = await buyPackage(user.cookie)
    // What the first delivery did before the process died: the credit, not the row.
    const engine = new Engine({ redis, prisma, prefix: inject('e2eRedisPrefix') })
    await engine.credit(user.id, 50, 'topup', `payment:${paymentId}`)
    expect((await paymentRow(paymentId)).status).toBe('pending')
    expect((await webhook({ payment_id: paymentId })).status).toBe(200)
    expect((await paymentRow(paymentId)).status).toBe('paid')
    expect(await balance(user.cookie)).toBe(55)
    expect(await topupLedger(user.id, 1)).toHaveLength(1)
  })

  test('forged, missing or malformed notifications and unknown targets credit nothing', async () => {
    const user = await newAccount()
    const paymentId = await buyPackage(user.cookie, 'bids-100')
    const event = { payment_id: paymentId, amount: '1500.00' }

    const forged = await webhook(event, { secret: 'not-the-sandbox-secret-at-all' })
    expect(forged.status).toBe(401)
    expect(forged.json.error).toEqual(expect.any(String))
    expect((await webhook(event, { signature: null })).status).toBe(401)
    expect((await webhook(event, { signature: 'sha256=abc' })).status).toBe(401)
    expect((await webhook('{"event":"payment.updated"')).status).toBe(400)
    expect((await webhook('{"event":"payment.updated","payment_id":"x"}')).status).toBe(400)
    expect((await webhook({ ...event, payment_id: 'no-such-payment' })).status).toBe(404)
    const unknownProvider = await webhook(event, {}, 'paypal')
    expect(unknownProvider.status).toBe(404)
    expect(unknownProvider.json.error).toEqual(expect.any(String))

    expect(await balance(user.cookie)).toBe(5)
    expect((await paymentRow(paymentId)).status).toBe('pending')
    expect(await topupLedger(user.id, 0)).toEqual([])
  })

  test('money other than what the payment asks is held for an admin, never credited', async () => {
    const user = await newAccount()
    const paymentId = await buyPackage(user.cookie)
    // A failure's amount does not matter much, but it is not trusted either.
    expect(
      (await webhook({ payment_id: paymentId, status: 'failed', currency: 'USD' })).status,
    ).toBe(409)
    expect(await paymentRow(paymentId)).toMatchObject({
      status: 'pending',
      failureReason: 'amount_mismatch',
    })
    const transaction_id = txn()
    const cheaper = await webhook({ payment_id: paymentId, transaction_id, amount: '7.50' })
    expect(cheaper).toEqual({ status: 200, json: { ok: true, paymentId, status: 'held' } })
    expect(await paymentRow(paymentId)).toMatchObject({
      status: 'held',
      providerTxnId: transaction_id,
      failureReason: 'amount_mismatch',
      paidAt: null,
    })
    // Held is where the money stays: a replay, a late failure or another charge changes nothing.
    expect(
      (await webhook({ payment_id: paymentId, transaction_id, amount: '7.50' })).json,
    ).toMatchObject({ duplicate: true, status: 'held' })
    expect((await webhook({ payment_id: paymentId, status: 'failed' })).json).toMatchObject({
      ignored: true,
    })
    expect((await webhook({ payment_id: paymentId })).status).toBe(409)
    expect((await paymentRow(paymentId)).status).toBe('held')
    expect(await balance(user.cookie)).toBe(5)
    expect(await topupLedger(user.id, 0)).toEqual([])

    const dollars = await buyPackage(user.cookie)
    expect((await webhook({ payment_id: dollars, currency: 'USD' })).json.status).toBe('held')
    expect(await balance(user.cookie)).toBe(5)
  })

  test('a transaction id already used by another payment is refused', async () => {
    const user = await newAccount()
    const first = await buyPackage(user.cookie)
    const second = await buyPackage(user.cookie)
    const transaction_id = txn()
    expect((await webhook({ payment_id: first, transaction_id })).status).toBe(200)
    const reused = await webhook({ payment_id: second, transaction_id })
    expect(reused.status).toBe(409)
    expect((await paymentRow(second)).status).toBe('pending')
    expect(await balance(user.cookie)).toBe(55)
    expect(await topupLedger(user.id, 1)).toHaveLength(1)
  })

  test('paid is final: a failed event after it is ignored; a failure before it is overtaken', async () => {
    const user = await newAccount()
    const paidFirst = await buyPackage(user.cookie)
    expect((await webhook({ payment_id: paidFirst })).status).toBe(200)
    const late = await webhook({ payment_id: paidFirst, status: 'failed' })
    expect(late).toMatchObject({ status: 200, json: { ignored: true, status: 'paid' } })
    expect((await webhook({ payment_id: paidFirst, status: 'cancelled' })).status).toBe(200)
    expect(await paymentRow(paidFirst)).toMatchObject({ status: 'paid', failureReason: null })

    const failedFirst = await buyPackage(user.cookie)
    expect((await webhook({ payment_id: failedFirst, status: 'failed' })).status).toBe(200)
    expect((await paymentRow(failedFirst)).status).toBe('failed')
    expect((await webhook({ payment_id: failedFirst })).status).toBe(200)
    expect((await paymentRow(failedFirst)).status).toBe('paid')

    expect(await balance(user.cookie)).toBe(5 + 50 + 50)
    const ledger = await topupLedger(user.id, 2)
    expect(ledger.map((row) => row.reference).sort()).toEqual(
      [`payment:${paidFirst}`, `payment:${failedFirst}`].sort(),
    )
  })

  test('a second, different paid transaction for a paid payment is refused, not credited', async () => {
    const user = await newAccount()
    const paymentId = await buyPackage(user.cookie)
    expect((await webhook({ payment_id: paymentId })).status).toBe(200)
    expect((await webhook({ payment_id: paymentId })).status).toBe(409)
    expect(await balance(user.cookie)).toBe(55)
  })

  test('checkout needs a login and a known package', async () => {
    const anonymous = await postForm('/topup', { intent: 'buy', packageId: 'bids-50' })
    expect(anonymous.status).toBe(302)
    expect(anonymous.headers.get('location')).toBe('/login?redirectTo=%2Ftopup')
    const user = await newAccount()
    const unknown = await postForm('/topup', { intent: 'buy', packageId: 'bids-7' }, user.cookie)
    expect(unknown.status).toBe(303)
    expect(unknown.headers.get('location')).toBe('/topup')
    expect(await prisma.payment.count({ where: { userId: user.id } })).toBe(0)
    expect((await postForm('/topup', { intent: 'steal' }, user.cookie)).status).toBe(400)
  })
})

describe('the webhook under a flood of forgeries', () => {
  const start = secondServer('webhookflood')

  test('700 unsigned posts from one address do not stop a signed webhook', async () => {
    const url = await start({
      TRUST_PROXY: 'loopback',
      RATE_LIMIT_SCALE: '1',
      PAYMENT_SANDBOX_SECRET: SECRET,
    })
    const user = await newAccount()
    const orders = [await createPayableOrder(user.id), await createPayableOrder(user.id)]
    const payments = await Promise.all(
      orders.map((order) => checkout(`/topup/order/${order.id}`, { intent: 'pay' }, user.cookie)),
    )
    const post = (from: string, body: string, signature?: string) =>
      fetch(`${url}/api/payments/webhook/sandbox`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'X-Forwarded-For': from,
          ...(signature ? { 'X-Sandbox-Signature': signature } : {}),
        },
        body,
      }).then((response) => response.status)
    const forged = JSON.stringify({ event: 'payment.updated', payment_id: payments[0] })
    const statuses: number[] = []
    // WEBHOOK_BAD_SIGNATURE_LIMIT (app/services/payments/webhook.server.ts): 60 a minute.
    const minute = (at: number) => Math.floor(at / 60_000)
    const from = minute(Date.now())
    for (let batch = 0; batch < 14; batch++)
      statuses.push(
        ...(await Promise.all(Array.from({ length: 50 }, () => post('203.0.113.7', forged)))),
      )
    // The limit counts per window: a flood that crossed a window's end had one more allowance.
    const windows = minute(Date.now()) - from + 1
    const refused = statuses.filter((status) => status === 401).length
    expect(refused).toBeGreaterThan(0)
    expect(refused).toBeLessThanOrEqual(60 * windows)
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0)
    expect(statuses.every((status) => status === 401 || status === 429)).toBe(true)

    const signed = (paymentId: string) => {
      const body = JSON.stringify({
        event: 'payment.updated',
        payment_id: paymentId,
        transaction_id: txn(),
        status: 'paid',
        amount: '1434.56',
        currency: 'KGS',
      })
      return {
        body,
        signature: `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`,
      }
    }
    const same = signed(payments[0]!)
    expect(await post('203.0.113.7', same.body, same.signature)).toBe(200)
    const other = signed(payments[1]!)
    expect(await post('198.51.100.40', other.body, other.signature)).toBe(200)
    for (const order of orders)
      expect((await prisma.order.findUniqueOrThrow({ where: { id: order.id } })).status).toBe(
        'paid',
      )
  })
})
