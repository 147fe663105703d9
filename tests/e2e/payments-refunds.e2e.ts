import { describe, expect, test } from 'vitest'
import { base, call, newAccount } from './api.ts'
import { e2eDatabase } from './auctions.ts'
import { adminSession } from './admin-api.ts'
import { createPayableOrder, paidOrder, paymentRow } from './payment-records.ts'
import { checkout, postForm, webhook } from './payments.ts'
import { withoutPageTexts } from './pages.ts'

// Refunds of paid orders and of held money by an admin, through the API and /admin/orders
// (docs/payments.md).

const prisma = e2eDatabase()

describe('refunds', () => {
  test('an admin refunds a paid order through the API once; the payment keeps who and why', async () => {
    const cookie = await adminSession()
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
    const cookie = await adminSession()
    const user = await newAccount()
    const refund = (id: string, as = cookie) =>
      call(`/api/admin/orders/${id}/refund`, { cookie: as, body: { reason: 'не доставить' } })

    const unpaid = await createPayableOrder(user.id)
    await checkout(`/topup/order/${unpaid.id}`, { intent: 'pay' }, user.cookie)
    expect(await refund(unpaid.id)).toMatchObject({
      status: 409,
      json: { error: 'Заказ не оплачен: возвращать нечего' },
    })
    const cash = await createPayableOrder(user.id)
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
    const cookie = await adminSession()
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
    const cookie = await adminSession()
    const user = await newAccount()
    const order = await createPayableOrder(user.id)
    const paymentId = await checkout(`/topup/order/${order.id}`, { intent: 'pay' }, user.cookie)
    await webhook({ payment_id: paymentId, amount: '1.00' })

    const adminPage = async (path: string) =>
      (await fetch(`${base()}${path}`, { headers: { Cookie: cookie } })).text()
    const html = await adminPage('/admin/orders?status=awaiting_payment')
    expect(html).toContain('Задержано')
    expect(html).toContain('Сумма или валюта не совпали с платежом')
    expect(await adminPage(`/admin/orders?refund=${order.id}`)).toContain('Причина возврата')

    const refund = (reason: string) =>
      postForm(
        `/admin/orders/${order.id}/refund`,
        { intent: 'refund', id: order.id, reason },
        cookie,
      )
    const noReason = await refund('')
    expect(noReason.status).toBe(400)
    expect(withoutPageTexts(await noReason.text())).toContain('Укажите причину возврата')
    const done = await refund('Сумма не та')
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
