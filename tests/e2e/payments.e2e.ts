import { createHmac } from 'node:crypto'
import { PrismaPg } from '@prisma/adapter-pg'
import { createRedis, Engine, PAYMENT_WINDOW_MS } from '../../engine/index.ts'
import { afterAll, describe, expect, inject, test } from 'vitest'
import { PrismaClient } from '../../prisma/generated/client.ts'
import { base, call, newAccount, sessionOf, unique } from './api.ts'
import { createAuction, outboxWritten } from './auctions.ts'
import { buyPackage, checkout, postForm, SECRET, txn, webhook } from './payments.ts'
import { secondServer } from './second-server.ts'
import { open, setupBrowser } from './browser.ts'
import { newUser } from './people.ts'

// Payments end to end against the production build: checkout, the sandbox's signed webhook
// (computed here from the secret global-setup gives the server), crediting exactly once, orders.

const prisma = new PrismaClient({
  adapter: new PrismaPg({ connectionString: inject('e2eDatabaseUrl') }),
})
const redis = createRedis(inject('e2eRedisUrl'))
afterAll(async () => {
  await redis.quit()
  await prisma.$disconnect()
})

async function balance(cookie: string) {
  const me = await call('/api/auth/me', { method: 'GET', cookie })
  return (me.json.user as { bidBalance: number }).bidBalance
}

/** The user's top-up ledger once the outbox has written it (it trails Redis slightly). */
async function topupLedger(userId: string, expected: number) {
  const deadline = Date.now() + 10_000
  for (;;) {
    const rows = await prisma.balanceLedger.findMany({
      where: { userId, reason: 'topup' },
      select: { amount: true, reference: true },
      orderBy: { createdAt: 'asc' },
    })
    if (rows.length >= expected || Date.now() > deadline) {
      // A wrong second credit would be written by now too.
      await outboxWritten()
      return prisma.balanceLedger.findMany({
        where: { userId, reason: 'topup' },
        select: { amount: true, reference: true },
        orderBy: { createdAt: 'asc' },
      })
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

const paymentRow = (id: string) => prisma.payment.findUniqueOrThrow({ where: { id } })

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

async function createOrder(
  userId: string,
  overrides: { deliveryMethod?: 'courier_bishkek' | 'pickup' | null; expiresInMs?: number } = {},
) {
  const auction = await createAuction({ title: `Заказ ${unique()}`, startsInMs: 3_600_000 })
  return prisma.order.create({
    data: {
      auctionId: auction.id,
      userId,
      kind: 'win',
      price: 1234_56,
      deliveryMethod:
        overrides.deliveryMethod === undefined ? 'courier_bishkek' : overrides.deliveryMethod,
      deliveryFee: overrides.deliveryMethod === 'pickup' ? 0 : 200_00,
      expiresAt: new Date(Date.now() + (overrides.expiresInMs ?? PAYMENT_WINDOW_MS)),
    },
    select: { id: true, auction: { select: { title: true } } },
  })
}

describe('paying an order', () => {
  test('the owner pays price plus delivery; the webhook marks the order paid', async () => {
    const user = await newAccount()
    const order = await createOrder(user.id)
    const page = await fetch(`${base()}/topup/order/${order.id}`, {
      headers: { Cookie: user.cookie },
    })
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain(order.auction.title)
    expect(html).toMatch(/1\s434,56/)

    const paymentId = await checkout(`/topup/order/${order.id}`, { intent: 'pay' }, user.cookie)
    expect(await paymentRow(paymentId)).toMatchObject({
      purpose: 'order',
      orderId: order.id,
      amount: 1434_56,
      bids: 0,
    })
    expect((await webhook({ payment_id: paymentId, amount: '1434.56' })).status).toBe(200)
    const paid = await prisma.order.findUniqueOrThrow({ where: { id: order.id } })
    expect(paid.status).toBe('paid')
    expect(paid.paidAt).toBeInstanceOf(Date)
    expect(await balance(user.cookie)).toBe(5)

    // Paid now: the page says so instead of offering to pay again.
    const after = await fetch(`${base()}/topup/order/${order.id}`, {
      headers: { Cookie: user.cookie },
    })
    expect(await after.text()).toContain('Заказ уже оплачен или закрыт.')
  })

  test('money for an order that expired meanwhile does not mark it paid', async () => {
    const user = await newAccount()
    const order = await createOrder(user.id)
    const paymentId = await checkout(`/topup/order/${order.id}`, { intent: 'pay' }, user.cookie)
    await prisma.order.update({ where: { id: order.id }, data: { status: 'expired' } })
    expect((await webhook({ payment_id: paymentId, amount: '1434.56' })).status).toBe(200)
    expect((await prisma.order.findUniqueOrThrow({ where: { id: order.id } })).status).toBe(
      'expired',
    )
    expect(await paymentRow(paymentId)).toMatchObject({
      status: 'paid',
      failureReason: 'order_not_payable',
    })

    // Past its time but not yet swept: still not paid.
    const late = await createOrder(user.id)
    const latePayment = await checkout(`/topup/order/${late.id}`, { intent: 'pay' }, user.cookie)
    await prisma.order.update({ where: { id: late.id }, data: { expiresAt: new Date() } })
    expect((await webhook({ payment_id: latePayment, amount: '1434.56' })).status).toBe(200)
    expect((await prisma.order.findUniqueOrThrow({ where: { id: late.id } })).status).toBe(
      'awaiting_payment',
    )
  })

  test('only the owner sees the page; no checkout without delivery or after expiry', async () => {
    const owner = await newAccount()
    const stranger = await newAccount()
    const order = await createOrder(owner.id)
    const foreign = await fetch(`${base()}/topup/order/${order.id}`, {
      headers: { Cookie: stranger.cookie },
    })
    expect(foreign.status).toBe(404)
    const anonymous = await fetch(`${base()}/topup/order/${order.id}`, { redirect: 'manual' })
    expect(anonymous.status).toBe(302)
    expect(anonymous.headers.get('location')).toContain('/login?redirectTo=')

    const undelivered = await createOrder(owner.id, { deliveryMethod: null })
    const page = await fetch(`${base()}/topup/order/${undelivered.id}`, {
      headers: { Cookie: owner.cookie },
    })
    expect(await page.text()).toContain('Сначала выберите способ доставки в профиле.')
    const refused = await postForm(
      `/topup/order/${undelivered.id}`,
      { intent: 'pay' },
      owner.cookie,
    )
    expect(refused.headers.get('location')).toBe(`/topup/order/${undelivered.id}`)

    const expired = await createOrder(owner.id, { expiresInMs: -1000 })
    const expiredPost = await postForm(
      `/topup/order/${expired.id}`,
      { intent: 'pay' },
      owner.cookie,
    )
    expect(expiredPost.headers.get('location')).toBe(`/topup/order/${expired.id}`)
    expect(await prisma.payment.count({ where: { userId: owner.id } })).toBe(0)
  })
})

describe('orders are paid exactly', () => {
  test('a delivery change after checkout cancels it; the old amount is held, the new one pays', async () => {
    const user = await newAccount()
    const order = await createOrder(user.id, { deliveryMethod: 'pickup' })
    const early = await checkout(`/topup/order/${order.id}`, { intent: 'pay' }, user.cookie)
    expect((await paymentRow(early)).amount).toBe(1234_56)

    // Courier in Bishkek: 200 som more than the checkout that is already open.
    const changed = await call(`/api/users/orders/${order.id}/delivery`, {
      method: 'PUT',
      cookie: user.cookie,
      body: {
        deliveryMethod: 'courier_bishkek',
        address: 'Бишкек, ул. Киевская 1',
        phone: '+996555123456',
      },
    })
    expect(changed.status).toBe(200)
    expect(changed.json.order).toMatchObject({ total: 1434.56 })
    expect(await paymentRow(early)).toMatchObject({
      status: 'cancelled',
      failureReason: 'order_changed',
    })

    // The payer finishes the old checkout anyway: the money is held, the order not paid short.
    const late = await webhook({ payment_id: early, amount: '1234.56' })
    expect(late).toEqual({ status: 200, json: { ok: true, paymentId: early, status: 'held' } })
    expect(await paymentRow(early)).toMatchObject({
      status: 'held',
      failureReason: 'order_amount_changed',
      paidAt: null,
    })
    expect((await prisma.order.findUniqueOrThrow({ where: { id: order.id } })).status).toBe(
      'awaiting_payment',
    )

    // A new checkout asks for the new total and pays the order.
    const fresh = await checkout(`/topup/order/${order.id}`, { intent: 'pay' }, user.cookie)
    expect((await paymentRow(fresh)).amount).toBe(1434_56)
    expect((await webhook({ payment_id: fresh, amount: '1434.56' })).json.status).toBe('paid')
    expect((await prisma.order.findUniqueOrThrow({ where: { id: order.id } })).status).toBe('paid')
    expect((await paymentRow(early)).status).toBe('held')
  })

  test('an order whose total changed behind the payment is not paid by it', async () => {
    const user = await newAccount()
    const order = await createOrder(user.id)
    const paymentId = await checkout(`/topup/order/${order.id}`, { intent: 'pay' }, user.cookie)
    // However the total moved (an admin's correction, a race), the payment no longer fits it.
    await prisma.order.update({ where: { id: order.id }, data: { price: 1334_56 } })
    expect((await webhook({ payment_id: paymentId, amount: '1434.56' })).json.status).toBe('held')
    expect((await prisma.order.findUniqueOrThrow({ where: { id: order.id } })).status).toBe(
      'awaiting_payment',
    )
  })

  test('a result page tells the payer their money is held', async () => {
    const user = await newAccount()
    const paymentId = await buyPackage(user.cookie)
    await webhook({ payment_id: paymentId, amount: '1.00' })
    const page = await fetch(`${base()}/topup?payment=${paymentId}`, {
      headers: { Cookie: user.cookie },
    })
    expect(await page.text()).toContain('Администратор проверит платёж и вернёт деньги')
  })
})

async function adminCookie() {
  const admin = await call('/api/auth/login', { body: { username: 'admin', password: 'admin123' } })
  expect(admin.status).toBe(200)
  return sessionOf(admin.cookie)
}

async function paidOrder() {
  const user = await newAccount()
  const order = await createOrder(user.id)
  const paymentId = await checkout(`/topup/order/${order.id}`, { intent: 'pay' }, user.cookie)
  expect((await webhook({ payment_id: paymentId, amount: '1434.56' })).status).toBe(200)
  return { user, order, paymentId }
}

describe('refunds', () => {
  test('an admin refunds a paid order through the API once; the payment keeps who and why', async () => {
    const cookie = await adminCookie()
    const { order, paymentId } = await paidOrder()
    const refund = (reason: unknown) =>
      call(`/api/admin/orders/${order.id}/refund`, { cookie, body: { reason } })

    expect((await refund('')).status).toBe(400)
    const done = await refund('  Товар повреждён на складе  ')
    expect(done).toMatchObject({
      status: 200,
      json: {
        refund: {
          orderId: order.id,
          paymentId,
          amount: 1434.56,
          currency: 'KGS',
          orderCancelled: true,
        },
      },
    })
    const row = await paymentRow(paymentId)
    expect(row).toMatchObject({
      status: 'refunded',
      refundReason: 'Товар повреждён на складе',
      refundId: expect.stringMatching(/^sbx_refund_/),
    })
    const admin = await call('/api/auth/me', { method: 'GET', cookie })
    expect(row.refundedBy).toBe((admin.json.user as { id: string }).id)
    expect(row.refundedAt).toBeInstanceOf(Date)
    expect((await prisma.order.findUniqueOrThrow({ where: { id: order.id } })).status).toBe(
      'cancelled',
    )

    const again = await refund('ещё раз')
    expect(again.status).toBe(409)
    expect(again.json).toEqual({ error: 'Деньги за этот заказ уже возвращены' })
    // A late event for the refunded payment changes nothing.
    expect((await webhook({ payment_id: paymentId, amount: '1434.56' })).status).toBe(409)
    expect((await paymentRow(paymentId)).status).toBe('refunded')
  })

  test('unpaid, cash-paid, shipped and unknown orders are refused; only admins may refund', async () => {
    const cookie = await adminCookie()
    const user = await newAccount()
    const refund = (id: string, as = cookie) =>
      call(`/api/admin/orders/${id}/refund`, { cookie: as, body: { reason: 'не доставить' } })

    const unpaid = await createOrder(user.id)
    await checkout(`/topup/order/${unpaid.id}`, { intent: 'pay' }, user.cookie)
    expect(await refund(unpaid.id)).toMatchObject({
      status: 409,
      json: { error: 'Заказ не оплачен: возвращать нечего' },
    })
    const cash = await createOrder(user.id)
    await prisma.order.update({ where: { id: cash.id }, data: { status: 'paid' } })
    expect((await refund(cash.id)).status).toBe(409)
    const shipped = await paidOrder()
    await prisma.order.update({ where: { id: shipped.order.id }, data: { status: 'shipped' } })
    expect((await refund(shipped.order.id)).status).toBe(409)
    expect((await paymentRow(shipped.paymentId)).status).toBe('paid')
    expect((await refund('no-such-order')).status).toBe(404)
    expect((await refund(unpaid.id, user.cookie)).status).toBe(403)
    expect((await refund(unpaid.id, '')).status).toBe(401)
  })

  test('a provider that cannot refund leaves the payment and the order as they were', async () => {
    const cookie = await adminCookie()
    const { order, paymentId } = await paidOrder()
    // The provider that took this payment is no longer configured on this server.
    await prisma.payment.update({ where: { id: paymentId }, data: { provider: 'retired-bank' } })
    const refused = await call(`/api/admin/orders/${order.id}/refund`, {
      cookie,
      body: { reason: 'не доставить' },
    })
    expect(refused.status).toBe(503)
    expect(refused.json.error).toEqual(expect.any(String))
    expect(await paymentRow(paymentId)).toMatchObject({ status: 'paid', refundedAt: null })
    expect((await prisma.order.findUniqueOrThrow({ where: { id: order.id } })).status).toBe('paid')
  })

  test('held money is refunded from /admin/orders without JavaScript, the order left as it is', async () => {
    const cookie = await adminCookie()
    const user = await newAccount()
    const order = await createOrder(user.id)
    const paymentId = await checkout(`/topup/order/${order.id}`, { intent: 'pay' }, user.cookie)
    await webhook({ payment_id: paymentId, amount: '1.00' })

    const list = await fetch(`${base()}/admin/orders?status=awaiting_payment`, {
      headers: { Cookie: cookie },
    })
    const html = await list.text()
    expect(html).toContain('Задержано')
    expect(html).toContain('Сумма или валюта не совпали с платежом')
    const dialog = await fetch(`${base()}/admin/orders?refund=${order.id}`, {
      headers: { Cookie: cookie },
    })
    expect(await dialog.text()).toContain('Причина возврата')

    const noReason = await postForm(
      `/admin/orders/${order.id}/refund`,
      { intent: 'refund', id: order.id, reason: '' },
      cookie,
    )
    expect(noReason.status).toBe(400)
    expect(await noReason.text()).toContain('Укажите причину возврата')
    const done = await postForm(
      `/admin/orders/${order.id}/refund`,
      { intent: 'refund', id: order.id, reason: 'Сумма не та' },
      cookie,
    )
    expect(done.status).toBe(302)
    expect(done.headers.get('location')).toBe('/admin/orders')
    expect(await paymentRow(paymentId)).toMatchObject({
      status: 'refunded',
      refundReason: 'Сумма не та',
    })
    expect((await prisma.order.findUniqueOrThrow({ where: { id: order.id } })).status).toBe(
      'awaiting_payment',
    )
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
    const orders = [await createOrder(user.id), await createOrder(user.id)]
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

describe('top-up in the browser', () => {
  const browser = setupBrowser()

  test('without JavaScript: buy 50, pay on the sandbox, see the result and the new balance', async () => {
    const page = await browser.newPage({ javaScriptEnabled: false })
    await newUser(page, 'pay')
    await open(page, '/how-it-works')
    const headerBalance = page.getByTitle('Баланс ставок — пополнить')
    await expect.poll(() => headerBalance.textContent()).toBe('5 ставок')

    await open(page, '/topup')
    await page
      .getByRole('article', { name: '50 ставок', exact: true })
      .getByRole('button', { name: 'Купить сейчас' })
      .click()
    await page.waitForURL(/\/payments\/sandbox\//)
    await expect.poll(() => page.getByText('750,00 сом').count()).toBeGreaterThan(0)
    await page.getByRole('button', { name: 'Оплатить' }).click()
    await page.waitForURL(/\/topup\?payment=/)
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Результат оплаты' }).textContent())
      .toContain('Оплата прошла: на баланс зачислено 50 ставок.')
    expect(await headerBalance.textContent()).toBe('55 ставок')
  })

  test('declining on the sandbox shows the failure and credits nothing', async () => {
    const page = await browser.newPage({ javaScriptEnabled: false })
    await newUser(page, 'decline')
    await open(page, '/topup')
    await page
      .getByRole('article', { name: '100 ставок', exact: true })
      .getByRole('button', { name: 'Купить сейчас' })
      .click()
    await page.waitForURL(/\/payments\/sandbox\//)
    await page.getByRole('button', { name: 'Отклонить' }).click()
    await page.waitForURL(/\/topup\?payment=/)
    expect(
      await page.getByRole('status').filter({ hasText: 'Результат оплаты' }).textContent(),
    ).toContain('Оплата не прошла')
    expect(await page.getByTitle('Баланс ставок — пополнить').textContent()).toBe('5 ставок')
  })

  test('an anonymous visitor sees the packages and Buy leads to the login', async () => {
    const page = await browser.newPage()
    await open(page, '/topup')
    expect(await page.getByRole('article').count()).toBe(5)
    const popular = page.getByRole('article', { name: '250 ставок', exact: true })
    expect(await popular.getByText('Популярный').count()).toBe(1)
    expect(await popular.getByText(/^3\s750,00 сом$/).count()).toBe(1)
    expect(await popular.locator('s').textContent()).toMatch(/^5\s000,00 сом$/)
    expect(await page.getByRole('heading', { name: 'Безопасная оплата' }).count()).toBe(1)
    expect(await page.getByRole('heading', { name: 'Мгновенное зачисление' }).count()).toBe(1)
    expect(await page.getByRole('heading', { name: 'Поддержка 24/7' }).count()).toBe(1)
    await page
      .getByRole('article', { name: '100 ставок', exact: true })
      .getByRole('button', { name: 'Купить сейчас' })
      .click()
    await page.waitForURL((url) => url.pathname === '/login')
    expect(new URL(page.url()).searchParams.get('redirectTo')).toBe('/topup')
  })
})
