import { afterAll, beforeEach, describe, expect, test } from 'vitest'
import { startFreedomPaySite } from '../../../tests/support/freedompay-site.ts'

// Freedom Pay's money that does not simply arrive, against the local fake
// (tests/support/freedompay-fake.ts): money given back, in the shape of Freedom Pay's "after
// payment" page, never reads as paid; and where a callback does not let us refuse its money
// (no pg_can_reject=1), nothing is answered `rejected`: money we cannot apply is held.

const site = await startFreedomPaySite()
const { fake, engine, pkg, checkout, row } = site
const protocol = await import('./freedompay-protocol.server.ts')
const { activeProvider } = await import('./index.server.ts')
const { getPrisma } = await import('~/utils/db.server.ts')

/** get_status3.php's answer as Freedom Pay sends it, asked with a correct signature. */
async function fetchStatusXml(paymentId: string) {
  const fields = protocol.signFields(
    'get_status3.php',
    { pg_merchant_id: fake.merchantId, pg_payment_id: paymentId },
    fake.secretKey,
  )
  const response = await fetch(`${fake.url}/get_status3.php`, {
    method: 'POST',
    body: new URLSearchParams(fields),
  })
  return response.text()
}

afterAll(() => site.stop())
beforeEach(() => fake.behave({}))

describe('Freedom Pay: money given back, money we may not refuse', () => {
  test('money given back never reads as paid: the status answer of Freedom Pay’s pages', async () => {
    const { payment, atFake } = await checkout()
    const provider = activeProvider()
    const query = { id: payment.id, providerPaymentId: atFake.id, transactionId: null }
    fake.behave({ dropCallback: true })
    await fake.decide(atFake, true)
    // Part of it refunded in Freedom Pay's console: still `success`, the refund listed beside.
    expect(fake.refund(atFake, '250.00')).toBe(true)
    const answer = await fetchStatusXml(atFake.id)
    expect(answer).toMatch(/<pg_payment_status>success<\/pg_payment_status>/)
    expect(answer).toMatch(
      /<pg_refund_payments><pg_refund_payment><pg_payment_id>\d+<\/pg_payment_id><pg_payment_status>success<\/pg_payment_status><pg_amount>-250\.00<\/pg_amount>/,
    )
    expect(answer).toMatch(/<pg_refund_amount>-250\.00<\/pg_refund_amount>/)
    const settled = (event: Record<string, unknown>) => ({
      known: true,
      status: 'settled',
      event: { paymentId: payment.id, amount: pkg.price, currency: 'KGS', ...event },
    })
    expect(await provider.getStatus(query)).toMatchObject(
      settled({ status: 'refunded', refunded: 250_00, reason: 'refunded', canReject: false }),
    )
    // The rest too: all of it.
    expect(fake.refund(atFake, '500.00')).toBe(true)
    expect(await provider.getStatus(query)).toMatchObject(
      settled({ status: 'refunded', refunded: pkg.price }),
    )
    // Taken back by Freedom Pay (a payment the merchant rejected): pg_revoked_payments.
    const revoked = await checkout()
    fake.behave({ dropCallback: true })
    await fake.decide(revoked.atFake, true)
    fake.revoke(revoked.atFake)
    expect(
      await provider.getStatus({
        id: revoked.payment.id,
        providerPaymentId: revoked.atFake.id,
        transactionId: null,
      }),
    ).toMatchObject({ event: { status: 'refunded', refunded: pkg.price, reason: 'revoked' } })
  })

  test('without pg_can_reject=1 nothing is answered rejected: money we cannot apply is held once', async () => {
    const held = (transactionId: string, reason: string) =>
      getPrisma().payment.findMany({
        where: { providerPaymentId: transactionId, failureReason: reason },
      })
    // A payment we do not know, its callback repeated.
    const unknown = await checkout()
    fake.behave({ orderId: 'no-such-payment', canReject: '0', repeat: 2 })
    await fake.decide(unknown.atFake, true)
    for (const call of fake.callbacks.slice(-2)) {
      expect(call).toMatchObject({ status: 200, pgStatus: 'ok', answerSigned: true })
    }
    expect(unknown.atFake.revocations).toEqual([])
    expect(await held(unknown.atFake.id, 'unknown_payment')).toMatchObject([
      { status: 'held', amount: pkg.price, currency: 'KGS', userId: null, providerTxnId: null },
    ])
    expect(await row(unknown.payment.id)).toMatchObject({ status: 'pending' })

    // The payer charged twice for one checkout: the first charge credited, the second held.
    const twice = await checkout()
    fake.behave({})
    await fake.decide(twice.atFake, true)
    fake.behave({ canReject: '0' })
    const second = await fake.chargeAgain(twice.atFake)
    expect(fake.callbacks.at(-1)).toMatchObject({ pgStatus: 'ok', orderId: twice.payment.id })
    expect(second.revocations).toEqual([])
    expect(await held(second.id, 'second_charge')).toMatchObject([
      { status: 'held', amount: pkg.price, userId: twice.user.id, purpose: 'package', bids: 0 },
    ])
    expect(await row(twice.payment.id)).toMatchObject({
      status: 'paid',
      providerTxnId: twice.atFake.id,
    })
    expect(await engine.getBalance(twice.user.id)).toBe(pkg.bids)

    // Another payment's transaction id: that payment keeps it, the money is held apart.
    const other = await checkout()
    fake.behave({ orderId: other.payment.id, canReject: '0' })
    await fake.sendCallback(twice.atFake)
    expect(fake.callbacks.at(-1)).toMatchObject({ pgStatus: 'ok', orderId: other.payment.id })
    expect(await held(twice.atFake.id, 'transaction_used')).toMatchObject([
      { status: 'held', userId: other.user.id },
    ])
    expect(await row(other.payment.id)).toMatchObject({ status: 'pending' })
    expect(await engine.getBalance(other.user.id)).toBe(0)

    // A declined payment with an amount of its own: nothing taken, nothing refused.
    const declined = await checkout()
    fake.behave({ amount: '1.00', canReject: '0' })
    await fake.decide(declined.atFake, false)
    expect(fake.callbacks.at(-1)).toMatchObject({ status: 200, pgStatus: 'ok' })
  })

  test('staff refund held money no order holds through Freedom Pay, once', async () => {
    const { refundHeldPayment } = await import('./refund.server.ts')
    const { listPayments } = await import('~/models/payment-admin.server.ts')
    const admin = await site.createUser()
    const unknown = await checkout()
    fake.behave({ orderId: 'no-such-payment-either', canReject: '0' })
    await fake.decide(unknown.atFake, true)
    const held = await getPrisma().payment.findFirstOrThrow({
      where: { providerPaymentId: unknown.atFake.id, failureReason: 'unknown_payment' },
    })
    // Staff see it among the held payments.
    const listed = await listPayments({ status: 'held', perPage: 100 })
    expect(listed.payments.map((p) => p.id)).toContain(held.id)

    expect(await refundHeldPayment(held.id, admin, 'Не наш платёж')).toEqual({
      paymentId: held.id,
      amount: pkg.price,
      currency: 'KGS',
    })
    expect(fake.requests.findLast((r) => r.script === 'revoke.php')).toMatchObject({
      signed: true,
      fields: { pg_payment_id: unknown.atFake.id, pg_refund_amount: '750.00' },
    })
    expect(unknown.atFake.refunds).toHaveLength(1)
    expect(await row(held.id)).toMatchObject({
      status: 'refunded',
      refundedBy: admin.id,
      refundReason: 'Не наш платёж',
    })
    // Once; and only held money no order holds.
    await expect(refundHeldPayment(held.id, admin, 'again')).rejects.toMatchObject({
      status: 409,
      key: 'admin-payments:errors.notHeld',
    })
    const paid = await checkout()
    await fake.decide(paid.atFake, true)
    await expect(refundHeldPayment(paid.payment.id, admin, 'paid')).rejects.toMatchObject({
      status: 409,
    })
    expect(paid.atFake.refunds).toEqual([])
  })
})
