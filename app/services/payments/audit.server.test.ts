import { expect, test } from 'vitest'
import { createUser } from '../../../engine/test-support.ts'
import { getPrisma } from '~/utils/db.server.ts'
import { auditPaymentCredits, isOnItsWay } from './audit.server.ts'
import { paymentReference } from './reference.ts'

// `npm run balances` finds a paid bid package not credited exactly once, with its bids, to its
// payer, and bids credited from a payment that was not paid or does not exist.

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
