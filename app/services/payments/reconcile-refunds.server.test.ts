import { afterAll, beforeEach, describe, expect, test } from 'vitest'
import { startFreedomPaySite } from '../../../tests/support/freedompay-site.ts'

// A paid payment refunded later at Freedom Pay (its console, a chargeback), against the local
// fake: the reconciler asks paid payments again an hour, a day, a week and 30 days after they
// were paid; a refunded bid package takes its bids back through the ledger as far as the balance
// allows, the rest is left for staff, and `npm run balances` still agrees.

const site = await startFreedomPaySite()
const { fake, engine, pkg, checkout, row } = site
const { reconcilePayments, REFUND_CHECKS_AFTER_MS } = await import('./reconcile.server.ts')
const { auditPaymentCredits } = await import('./audit.server.ts')
const { paymentReference, refundReference } = await import('./reference.ts')
const { auditBalances, OutboxWorker } = await import('../../../engine/index.ts')
const { getPrisma } = await import('~/utils/db.server.ts')
const { getEnv } = await import('~/utils/env.server.ts')
const outbox = new OutboxWorker(engine, 'reconcile-refunds-test', getEnv().DATABASE_URL)

afterAll(async () => {
  await outbox.stop()
  await site.stop()
})
beforeEach(async () => {
  fake.behave({})
  // Each test starts with nothing to ask about but its own payments.
  await getPrisma().payment.updateMany({
    where: { status: 'pending' },
    data: { status: 'cancelled', failureReason: 'test' },
  })
  await getPrisma().payment.updateMany({
    where: { status: 'paid' },
    data: { refundChecks: REFUND_CHECKS_AFTER_MS.length, refundCheckAt: null },
  })
})

const hours = (n: number) => new Date(Date.now() + n * 60 * 60_000)
const askedAbout = (id: string) =>
  fake.requests.filter((r) => r.script === 'get_status3.php' && r.fields.pg_payment_id === id)

/** A package bought and credited through its callback. */
async function paidPackage() {
  const bought = await checkout()
  await fake.decide(bought.atFake, true)
  expect(await engine.getBalance(bought.user.id)).toBe(pkg.bids)
  return bought
}

/** The person spends `bids` of their balance (an admin's adjustment stands in for bids placed). */
async function spend(userId: string, bids: number) {
  const spent = await engine.adjustBalance(userId, {
    delta: -bids,
    reference: `test-spend:${userId}:${bids}`,
    adminId: userId,
    note: 'spent',
  })
  expect(spent.ok).toBe(true)
}

/** The payment is refunded with these bids taken back and left with the buyer. */
async function refundedWith(id: string, taken: number, owed: number, more = {}) {
  expect(await row(id)).toMatchObject({
    status: 'refunded',
    bidsTakenBack: taken,
    bidsOwed: owed,
    ...more,
  })
}

async function ledgerAgrees(paymentIds: string[]) {
  await outbox.drain()
  const audit = await auditBalances(engine)
  expect(audit.mismatches).toEqual([])
  const problems = await auditPaymentCredits(getPrisma())
  expect(problems.filter((p) => p.paymentId && paymentIds.includes(p.paymentId))).toEqual([])
}

describe('refunds Freedom Pay reports after a payment was credited', () => {
  test('a refunded package takes its bids back as far as the balance allows; the rest is left for staff', async () => {
    const whole = await paidPackage()
    const spent = await paidPackage()
    await spend(spent.user.id, 30)
    for (const { atFake } of [whole, spent]) expect(fake.refund(atFake)).toBe(true)

    // Not asked before an hour has passed since it was paid.
    expect((await reconcilePayments(engine, hours(0.5), { pauseMs: 0 })).refundChecks).toBe(0)
    const run = await reconcilePayments(engine, hours(1.1), { pauseMs: 0 })
    expect(run).toMatchObject({ refundChecks: 2, refunded: 2, errors: 0 })

    await refundedWith(whole.payment.id, pkg.bids, 0, { refundReason: 'refunded' })
    expect(await engine.getBalance(whole.user.id)).toBe(0)
    await refundedWith(spent.payment.id, pkg.bids - 30, 30)
    expect(await engine.getBalance(spent.user.id)).toBe(0)
    await outbox.drain()
    const takeBack = await getPrisma().balanceLedger.findUnique({
      where: { reference: refundReference(spent.payment.id) },
    })
    expect(takeBack).toMatchObject({ reason: 'payment_refund', amount: -(pkg.bids - 30) })

    // Asked no more, and nothing is taken twice.
    await engine.credit(spent.user.id, 5, 'topup', `test-gift:${spent.user.id}`)
    const later = await reconcilePayments(engine, hours(24 * 8), { pauseMs: 0 })
    expect(later.refundChecks).toBe(0)
    expect(await engine.getBalance(spent.user.id)).toBe(5)
    await ledgerAgrees([whole.payment.id, spent.payment.id])
  })

  test('part refunded: all its bids go back, the rest of the money is for staff', async () => {
    const part = await paidPackage()
    expect(fake.refund(part.atFake, '100.00')).toBe(true)
    await reconcilePayments(engine, hours(1.1), { pauseMs: 0 })
    await refundedWith(part.payment.id, pkg.bids, 0, { failureReason: 'refunded_in_part' })
    expect(await engine.getBalance(part.user.id)).toBe(0)
    await ledgerAgrees([part.payment.id])
  })

  test('a paid payment is asked an hour, a day, a week and 30 days after it was paid, then never', async () => {
    const kept = await paidPackage()
    const asked: number[] = []
    for (const at of [0.5, 1.1, 2, 25, 24 * 7 + 1, 24 * 20, 24 * 30 + 1, 24 * 60]) {
      const before = askedAbout(kept.atFake.id).length
      await reconcilePayments(engine, hours(at), { pauseMs: 0 })
      if (askedAbout(kept.atFake.id).length > before) asked.push(at)
    }
    expect(asked).toEqual([1.1, 25, 24 * 7 + 1, 24 * 30 + 1])
    expect(await row(kept.payment.id)).toMatchObject({ status: 'paid', refundChecks: 4 })
    expect(await engine.getBalance(kept.user.id)).toBe(pkg.bids)

    // A payment first asked late (the reconciler stopped a while) is asked once for the steps
    // already past.
    const late = await paidPackage()
    const before = askedAbout(late.atFake.id).length
    await reconcilePayments(engine, hours(24 * 8), { pauseMs: 0 })
    await reconcilePayments(engine, hours(24 * 8 + 1), { pauseMs: 0 })
    expect(askedAbout(late.atFake.id).length - before).toBe(1)
    expect(await row(late.payment.id)).toMatchObject({ refundChecks: 3 })
  })

  test('credited while its marking failed, then refunded: its bids are taken back all the same', async () => {
    const bought = await checkout()
    fake.behave({ dropCallback: true })
    await fake.decide(bought.atFake, true)
    // What a callback did before Postgres went away: the credit, not the marking.
    await engine.credit(bought.user.id, pkg.bids, 'topup', paymentReference(bought.payment.id))
    expect(fake.refund(bought.atFake)).toBe(true)
    await reconcilePayments(engine, hours(0.2), { pauseMs: 0 })
    await refundedWith(bought.payment.id, pkg.bids, 0)
    expect((await row(bought.payment.id)).paidAt).toBeInstanceOf(Date)
    expect(await engine.getBalance(bought.user.id)).toBe(0)
    await ledgerAgrees([bought.payment.id])
  })

  test('a question that fails is asked again soon without using up its turn', async () => {
    const paid = await paidPackage()
    fake.behave({ statusError: '600' })
    expect(await reconcilePayments(engine, hours(1.1), { pauseMs: 0 })).toMatchObject({
      refundChecks: 1,
      errors: 1,
    })
    expect(await row(paid.payment.id)).toMatchObject({ refundChecks: 0 })
    fake.behave({})
    expect(fake.refund(paid.atFake)).toBe(true)
    expect(await reconcilePayments(engine, hours(1.5), { pauseMs: 0 })).toMatchObject({
      refunded: 1,
    })
    expect(await engine.getBalance(paid.user.id)).toBe(0)
  })
})
