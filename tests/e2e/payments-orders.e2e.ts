import { describe, expect, test } from 'vitest'
import { base, call, newAccount } from './api.ts'
import { e2eDatabase } from './auctions.ts'
import { balance, createPayableOrder, paymentRow } from './payment-records.ts'
import { buyPackage, checkout, postForm, webhook } from './payments.ts'
import { withoutPageTexts } from './pages.ts'

// Paying a won item's order against the production build: the owner pays price and delivery
// once, exactly what the order asks and while it may be paid.

const prisma = e2eDatabase()

describe('paying an order', () => {
  test('the owner pays price plus delivery; the webhook marks the order paid', async () => {
    const user = await newAccount()
    const order = await createPayableOrder(user.id)
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
    expect(withoutPageTexts(await after.text())).toContain('Заказ уже оплачен или закрыт.')
  })

  test('money for an order that expired meanwhile does not mark it paid', async () => {
    const user = await newAccount()
    const order = await createPayableOrder(user.id)
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
    const late = await createPayableOrder(user.id)
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
    const order = await createPayableOrder(owner.id)
    const foreign = await fetch(`${base()}/topup/order/${order.id}`, {
      headers: { Cookie: stranger.cookie },
    })
    expect(foreign.status).toBe(404)
    const anonymous = await fetch(`${base()}/topup/order/${order.id}`, { redirect: 'manual' })
    expect(anonymous.status).toBe(302)
    expect(anonymous.headers.get('location')).toContain('/login?redirectTo=')

    const undelivered = await createPayableOrder(owner.id, { deliveryMethod: null })
    const page = await fetch(`${base()}/topup/order/${undelivered.id}`, {
      headers: { Cookie: owner.cookie },
    })
    expect(withoutPageTexts(await page.text())).toContain(
      'Сначала выберите способ доставки в профиле.',
    )
    const refused = await postForm(
      `/topup/order/${undelivered.id}`,
      { intent: 'pay' },
      owner.cookie,
    )
    expect(refused.headers.get('location')).toBe(`/topup/order/${undelivered.id}`)

    const expired = await createPayableOrder(owner.id, { expiresInMs: -1000 })
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
    const order = await createPayableOrder(user.id, { deliveryMethod: 'pickup' })
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
    const order = await createPayableOrder(user.id)
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
    expect(withoutPageTexts(await page.text())).toContain(
      'Администратор проверит платёж и вернёт деньги',
    )
  })
})
