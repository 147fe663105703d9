import { expect, test } from 'vitest'
import { createUser } from '../../../engine/test-support.ts'
import { getPrisma } from '~/utils/db.server.ts'
import { auditPaymentCredits, bidsOwedAfterRefunds, isOnItsWay } from './audit.server.ts'
import { paymentReference, refundReference } from './reference.ts'

// `npm run balances` finds a paid bid package not credited exactly once, with its bids, to its
// payer, bids credited from a payment that was not paid or does not exist, and a refunded
// package whose bids were not taken back once.

test('every paid package credited once with its bids to its payer; nothing else credited', async () => {
  const prisma = getPrisma()
  const [payer, other] = [await createUser(prisma, 0), await createUser(prisma, 0)]
  const payment = (status: 'paid' | 'pending' | 'failed') =>
    prisma.payment.create({
      data: { userId: payer.id, provider: 'freedompay', bids: 50, amount: 750_00, status },
    })
  const credit = (reference: string, amount = 50, userId = payer.id) =>
    prisma.balanceLedger.create({
      data: { userId, amount, balanceAfter: amount, reason: 'topup', reference },
    })
  const good = await payment('paid')
  await credit(paymentReference(good.id))
  const pending = await payment('pending')
  const notCredited = await payment('paid')
  const wrongAmount = await payment('paid')
  await credit(paymentReference(wrongAmount.id), 100)
  const wrongUser = await payment('paid')
  await credit(paymentReference(wrongUser.id), 50, other.id)
  const failed = await payment('failed')
  await credit(paymentReference(failed.id))
  // Credited, and its marking as paid failed: the provider's retry or reconciliation finishes it.
  const marking = await payment('pending')
  await credit(paymentReference(marking.id))
  await credit(`${paymentReference(good.id)}:again`)

  const ours = new Set(
    [good, pending, notCredited, wrongAmount, wrongUser, failed, marking].map((p) => p.id),
  )
  const problems = (await auditPaymentCredits(prisma)).filter(
    (p) =>
      (p.paymentId && ours.has(p.paymentId)) || p.reference?.startsWith(paymentReference(good.id)),
  )
  expect(problems).toHaveLength(6)
  expect(problems.filter(isOnItsWay)).toEqual([
    {
      paymentId: marking.id,
      reference: paymentReference(marking.id),
      problem: 'credited_awaiting_mark',
    },
  ])
  expect(problems).toEqual(
    expect.arrayContaining([
      { paymentId: notCredited.id, reference: null, problem: 'paid_not_credited' },
      {
        paymentId: wrongAmount.id,
        reference: paymentReference(wrongAmount.id),
        problem: 'credited_wrong_amount',
      },
      {
        paymentId: wrongUser.id,
        reference: paymentReference(wrongUser.id),
        problem: 'credited_to_another_user',
      },
      {
        paymentId: failed.id,
        reference: paymentReference(failed.id),
        problem: 'credited_not_paid',
      },
      {
        paymentId: null,
        reference: `${paymentReference(good.id)}:again`,
        problem: 'credit_without_payment',
      },
    ]),
  )
})

test('a refunded package took its bids back once: taken back and owed make its bids', async () => {
  const prisma = getPrisma()
  const payer = await createUser(prisma, 0)
  const payment = (data: Record<string, unknown>) =>
    prisma.payment.create({
      data: { userId: payer.id, provider: 'freedompay', bids: 50, amount: 750_00, ...data },
    })
  const ledger = (reference: string, amount: number, reason: 'topup' | 'payment_refund') =>
    prisma.balanceLedger.create({
      data: { userId: payer.id, amount, balanceAfter: 0, reason, reference },
    })
  const refunded = (taken: number | null, owed: number | null) =>
    payment({ status: 'refunded', paidAt: new Date(), bidsTakenBack: taken, bidsOwed: owed })

  const good = await refunded(20, 30)
  await ledger(paymentReference(good.id), 50, 'topup')
  await ledger(refundReference(good.id), -20, 'payment_refund')
  const wrong = await refunded(20, 20)
  await ledger(paymentReference(wrong.id), 50, 'topup')
  await ledger(refundReference(wrong.id), -20, 'payment_refund')
  const notTaken = await refunded(null, null)
  await ledger(paymentReference(notTaken.id), 50, 'topup')
  // Held money refunded by staff: never credited, nothing to take back.
  const heldRefunded = await payment({ status: 'refunded', bids: 0 })
  // Taken back, and the marking of the payment refunded still to come.
  const marking = await payment({ status: 'paid', paidAt: new Date() })
  await ledger(paymentReference(marking.id), 50, 'topup')
  await ledger(refundReference(marking.id), -50, 'payment_refund')
  await ledger(refundReference('no-such-payment'), -5, 'payment_refund')

  const ours = new Set([good, wrong, notTaken, heldRefunded, marking].map((p) => p.id))
  const problems = (await auditPaymentCredits(prisma)).filter(
    (p) => (p.paymentId && ours.has(p.paymentId)) || p.reference?.includes('no-such-payment'),
  )
  expect(problems).toEqual(
    expect.arrayContaining([
      {
        paymentId: wrong.id,
        reference: refundReference(wrong.id),
        problem: 'refund_taken_back_wrong',
      },
      { paymentId: notTaken.id, reference: null, problem: 'refund_not_taken_back' },
      {
        paymentId: marking.id,
        reference: refundReference(marking.id),
        problem: 'taken_back_awaiting_mark',
      },
      {
        paymentId: null,
        reference: refundReference('no-such-payment'),
        problem: 'taken_back_not_refunded',
      },
    ]),
  )
  expect(problems).toHaveLength(4)
  expect(problems.filter(isOnItsWay).map((p) => p.paymentId)).toEqual([marking.id])
  // What the refunds left with their buyers, for staff: not a fault.
  const owed = await bidsOwedAfterRefunds(prisma)
  expect(owed.payments).toBeGreaterThanOrEqual(2)
  expect(owed.bids).toBeGreaterThanOrEqual(30 + 20)
})
