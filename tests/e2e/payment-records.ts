import { expect } from 'vitest'
import { PAYMENT_WINDOW_MS } from '../../engine/index.ts'
import { call, newAccount, unique } from './api.ts'
import { createAuction, e2eDatabase, outboxWritten } from './auctions.ts'
import { checkout, webhook } from './payments.ts'

// What the payment test files (payments-*.e2e.ts) make and read on the server's own database:
// orders to pay, payments, balances and the top-up ledger.

export async function balance(cookie: string) {
  const me = await call('/api/auth/me', { method: 'GET', cookie })
  return (me.json.user as { bidBalance: number }).bidBalance
}

/** The user's top-up ledger once the outbox has written it (it trails Redis slightly). */
export async function topupLedger(userId: string, expected: number) {
  const read = () =>
    e2eDatabase().balanceLedger.findMany({
      where: { userId, reason: 'topup' },
      select: { amount: true, reference: true },
      orderBy: { createdAt: 'asc' },
    })
  const deadline = Date.now() + 10_000
  for (;;) {
    const rows = await read()
    if (rows.length >= expected || Date.now() > deadline) {
      // A wrong second credit would be written by now too.
      await outboxWritten()
      return read()
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

export const paymentRow = (id: string) => e2eDatabase().payment.findUniqueOrThrow({ where: { id } })

/**
 * A won item's order awaiting payment: 1 234,56 som, and 200 som for the courier in Bishkek
 * unless another delivery (or none yet) is asked for.
 */
export async function createPayableOrder(
  userId: string,
  overrides: { deliveryMethod?: 'courier_bishkek' | 'pickup' | null; expiresInMs?: number } = {},
) {
  const auction = await createAuction({ title: `Заказ ${unique()}`, startsInMs: 3_600_000 })
  return e2eDatabase().order.create({
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

/** A new person's order, paid through the sandbox's webhook. */
export async function paidOrder() {
  const user = await newAccount()
  const order = await createPayableOrder(user.id)
  const paymentId = await checkout(`/topup/order/${order.id}`, { intent: 'pay' }, user.cookie)
  expect((await webhook({ payment_id: paymentId, amount: '1434.56' })).status).toBe(200)
  return { user, order, paymentId }
}
