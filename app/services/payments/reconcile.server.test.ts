import { afterAll, beforeEach, describe, expect, test } from 'vitest'
import { startFreedomPaySite } from '../../../tests/support/freedompay-site.ts'

// Reconciliation against the local fake of Freedom Pay: a lost callback is found by asking
// get_status3.php with Freedom Pay's payment id, and money given back since is never credited;
// questions are paced as Freedom Pay's pages ask and each payment is asked on its own back-off
// schedule; only a payment Freedom Pay never gave an id expires.

const site = await startFreedomPaySite()
const { fake, engine, pkg, checkout, row } = site
const { reconcilePayments, RECONCILE_BACKOFF_MS } = await import('./reconcile.server.ts')
const { activeProvider } = await import('./index.server.ts')
const { getPrisma } = await import('~/utils/db.server.ts')

afterAll(() => site.stop())
beforeEach(async () => {
  fake.behave({})
  // Each test starts with no payment due but its own.
  await getPrisma().payment.updateMany({
    where: { status: 'pending' },
    data: { status: 'cancelled', failureReason: 'test' },
  })
})

const minutes = (n: number) => new Date(Date.now() + n * 60_000)
const statusQuestions = () => fake.requests.filter((r) => r.script === 'get_status3.php')

describe('reconciliation', () => {
  test('a paid payment whose callback was lost is credited once', async () => {
    const { user, payment, atFake } = await checkout()
    fake.behave({ dropCallback: true })
    await fake.decide(atFake, true)
    // Not yet: it is younger than ten minutes.
    expect((await reconcilePayments(engine)).checked).toBe(0)
    const first = await reconcilePayments(engine, minutes(11))
    expect(first.settled).toBe(1)
    expect(await row(payment.id)).toMatchObject({ status: 'paid', providerTxnId: atFake.id })
    expect(await engine.getBalance(user.id)).toBe(pkg.bids)
    await reconcilePayments(engine, minutes(60 * 30))
    expect(await engine.getBalance(user.id)).toBe(pkg.bids)
  })

  test('a payment revoked before its callback arrived is cancelled, never credited', async () => {
    const { user, payment, atFake } = await checkout()
    fake.behave({ dropCallback: true })
    await fake.decide(atFake, true)
    fake.revoke(atFake)
    await reconcilePayments(engine, minutes(11))
    expect(await row(payment.id)).toMatchObject({ status: 'cancelled', failureReason: 'revoked' })
    expect(await engine.getBalance(user.id)).toBe(0)
  })

  test('a payment refunded after its callback was lost is never credited', async () => {
    // All of it, in Freedom Pay's console: still `success` there, with the refund listed.
    const whole = await checkout()
    fake.behave({ dropCallback: true })
    await fake.decide(whole.atFake, true)
    expect(fake.refund(whole.atFake)).toBe(true)
    // Part of it: the rest is held for staff to return.
    const part = await checkout()
    await fake.decide(part.atFake, true)
    expect(fake.refund(part.atFake, '100.00')).toBe(true)
    expect((await reconcilePayments(engine, minutes(11), { pauseMs: 0 })).settled).toBe(2)
    expect(await row(whole.payment.id)).toMatchObject({
      status: 'cancelled',
      failureReason: 'refunded',
      paidAt: null,
    })
    expect(await row(part.payment.id)).toMatchObject({
      status: 'held',
      failureReason: 'refunded_in_part',
    })
    for (const { user } of [whole, part]) expect(await engine.getBalance(user.id)).toBe(0)
    // A late callback of the first (Freedom Pay's retry of one sent before the refund) does not
    // credit it either.
    fake.behave({})
    expect(await fake.sendCallback(whole.atFake)).toMatchObject({ status: 200, pgStatus: 'ok' })
    expect(await row(whole.payment.id)).toMatchObject({ status: 'cancelled' })
    expect(await engine.getBalance(whole.user.id)).toBe(0)
  })

  test('status questions are 2 s apart by default, as Freedom Pay’s pages ask (1.5 to 2 s)', async () => {
    expect(activeProvider().statusPauseMs).toBe(2_000)
    await checkout()
    await checkout()
    const before = statusQuestions().length
    expect((await reconcilePayments(engine, minutes(11))).checked).toBe(2)
    const [first, second] = statusQuestions().slice(before)
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(1_950)
  })

  test('questions are paced, and each payment waits for its next turn on the back-off', async () => {
    const payments = [await checkout(), await checkout(), await checkout()]
    const before = statusQuestions().length
    const result = await reconcilePayments(engine, minutes(11), { pauseMs: 40 })
    expect(result.checked).toBe(3)
    const asked = statusQuestions().slice(before)
    expect(asked.map((r) => r.fields.pg_payment_id).sort()).toEqual(
      payments.map((p) => p.atFake.id).sort(),
    )
    for (let i = 1; i < asked.length; i++) {
      expect(asked[i]!.at - asked[i - 1]!.at).toBeGreaterThanOrEqual(38)
    }
    // Asked once: not again a minute later, but once the first wait (10 minutes) is over.
    expect((await reconcilePayments(engine, minutes(12), { pauseMs: 0 })).checked).toBe(0)
    const wait = RECONCILE_BACKOFF_MS[0]! / 60_000
    expect((await reconcilePayments(engine, minutes(11 + wait), { pauseMs: 0 })).checked).toBe(3)
    expect(await row(payments[0]!.payment.id)).toMatchObject({ status: 'pending', checkCount: 2 })
  })

  test('an error other than "payment not found" keeps the payment pending past a day', async () => {
    const { payment } = await checkout()
    fake.behave({ statusError: '600' })
    const result = await reconcilePayments(engine, minutes(25 * 60), { pauseMs: 0 })
    expect(result.errors).toBe(1)
    expect(await row(payment.id)).toMatchObject({ status: 'pending', checkCount: 1 })
    // So does an answer not signed by Freedom Pay.
    fake.behave({ answers: 'wrongKey' })
    expect((await reconcilePayments(engine, minutes(27 * 60), { pauseMs: 0 })).errors).toBe(1)
    expect(await row(payment.id)).toMatchObject({ status: 'pending' })
    fake.behave({})
    await reconcilePayments(engine, minutes(30 * 60), { pauseMs: 0 })
    // Freedom Pay knows it, still unpaid: pending it stays.
    expect(await row(payment.id)).toMatchObject({ status: 'pending' })
  })

  test('only a payment Freedom Pay never gave an id expires after 24 hours', async () => {
    const user = await site.createUser()
    // Never initialised (no payment id from Freedom Pay): nobody could pay it.
    const never = await site.createPackagePayment(user.id, 'freedompay', pkg)
    // Initialised under an id Freedom Pay answers "payment not found" (340) for: a code its
    // pages do not publish, so it ends nothing (docs/payments.md#freedom-pay).
    const unknown = await site.createPackagePayment(user.id, 'freedompay', pkg)
    await getPrisma().payment.update({
      where: { id: unknown.id },
      data: { providerPaymentId: '1' },
    })
    await reconcilePayments(engine, minutes(60), { pauseMs: 0 })
    expect(await row(never.id)).toMatchObject({ status: 'pending' })
    expect(await row(unknown.id)).toMatchObject({ status: 'pending' })
    const late = await reconcilePayments(engine, minutes(25 * 60), { pauseMs: 0 })
    expect(late).toMatchObject({ expired: 1, errors: 1 })
    expect(await row(never.id)).toMatchObject({ status: 'cancelled', failureReason: 'expired' })
    expect(await row(unknown.id)).toMatchObject({ status: 'pending', checkCount: 2 })
  })
})
