import type { TFunction } from 'i18next'
import { afterAll, expect, test } from 'vitest'
import { auditBalances, auditPackageOrders, Engine, OutboxWorker } from '../../../engine/index.ts'
import { createAuction, createUser } from '../../../engine/test-support.ts'
import { createOrderPayment } from '~/models/payment.server.ts'
import { getRedis } from '~/utils/redis.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import { getEnv } from '~/utils/env.server.ts'
import { applyPaymentEvent } from './apply-event.server.ts'
import { auditPaymentCredits } from './audit.server.ts'
import type { PaymentEvent } from './provider.server.ts'

// Money a provider reports given back for a paid order (provider-refund.server.ts): an item's
// order is left to staff, a bid-package auction's order takes the bids it credited back, as far
// as the balance allows, and every audit of `npm run balances` still agrees.

const engine = new Engine({ redis: getRedis(), prisma: getPrisma(), prefix: getEnv().REDIS_PREFIX })
const outbox = new OutboxWorker(engine, 'provider-refund-test', getEnv().DATABASE_URL)
afterAll(() => outbox.stop())
const t = ((key: string) => key) as unknown as TFunction
const PRICE = 12_34

/** An order of `bids` bids (a bid-package auction's; 0: an item's, with its delivery chosen). */
async function paidOrder(bids: number) {
  const winner = await createUser(getPrisma(), 0)
  const auction = await createAuction(getPrisma())
  const order = await getPrisma().order.create({
    data: {
      auctionId: auction.id,
      userId: winner.id,
      kind: 'win',
      price: PRICE,
      bids,
      deliveryMethod: bids ? null : 'pickup',
      expiresAt: new Date(Date.now() + 3_600_000),
    },
  })
  const payment = await createOrderPayment(winner.id, 'freedompay', { id: order.id, total: PRICE })
  const event = (status: PaymentEvent['status'], more = {}): PaymentEvent => ({
    paymentId: payment.id,
    transactionId: `fp-${payment.id}`,
    status,
    amount: PRICE,
    currency: 'KGS',
    canReject: false,
    ...more,
  })
  expect((await applyPaymentEvent('freedompay', event('paid'), engine, t)).status).toBe(200)
  return { winner, order, payment, event }
}

const row = (id: string) => getPrisma().payment.findUniqueOrThrow({ where: { id } })

test('a refunded bid-package order takes its bids back; an item’s order is left to staff', async () => {
  const pack = await paidOrder(40)
  expect(await engine.getBalance(pack.winner.id)).toBe(40)
  // The winner spent 15 of them (an admin's adjustment stands in for bids placed).
  await engine.adjustBalance(pack.winner.id, {
    delta: -15,
    reference: `spent:${pack.winner.id}`,
    adminId: pack.winner.id,
    note: 'spent',
  })
  const refunded = pack.event('refunded', { refunded: PRICE, reason: 'refunded' })
  const answer = await applyPaymentEvent('freedompay', refunded, engine, t)
  expect(await answer.json()).toMatchObject({ status: 'refunded', bidsTakenBack: 25, bidsOwed: 15 })
  expect(await row(pack.payment.id)).toMatchObject({
    status: 'refunded',
    refundedBy: null,
    refundReason: 'refunded',
    bidsTakenBack: 25,
    bidsOwed: 15,
  })
  expect(await engine.getBalance(pack.winner.id)).toBe(0)
  // Told again: nothing more is taken.
  await engine.credit(pack.winner.id, 3, 'topup', `gift:${pack.winner.id}`)
  expect(await (await applyPaymentEvent('freedompay', refunded, engine, t)).json()).toMatchObject({
    duplicate: true,
  })
  expect(await engine.getBalance(pack.winner.id)).toBe(3)

  const item = await paidOrder(0)
  const itemAnswer = await applyPaymentEvent(
    'freedompay',
    item.event('refunded', { refunded: PRICE, reason: 'revoked' }),
    engine,
    t,
  )
  expect(await itemAnswer.json()).toMatchObject({ status: 'refunded', bidsTakenBack: null })
  expect(await row(item.payment.id)).toMatchObject({ status: 'refunded', refundReason: 'revoked' })
  expect(await getPrisma().order.findUniqueOrThrow({ where: { id: item.order.id } })).toMatchObject(
    { status: 'paid' },
  )

  await outbox.drain()
  expect((await auditBalances(engine)).mismatches).toEqual([])
  const ours = [pack.payment.id, item.payment.id]
  expect(
    (await auditPaymentCredits(getPrisma())).filter((p) => ours.includes(p.paymentId!)),
  ).toEqual([])
  expect(
    (await auditPackageOrders(engine)).filter((p) =>
      [pack.order.id, item.order.id].includes(p.orderId!),
    ),
  ).toEqual([])
})
