import { afterAll, describe, expect, test } from 'vitest'
import { auditBalances } from './balances-audit.ts'
import { createWinnerOrders, expireOrders, OrderWorker, PAYMENT_WINDOW_MS } from './orders.ts'
import {
  auditPackageOrders,
  creditOwedPackageOrders,
  creditPackageOrder,
  packageOrderReference,
} from './package-orders.ts'
import { createAuction, createUser, testEngine } from './test-support.ts'

// Bid-package auctions credit bids (docs/decisions/077-bid-package-orders-credit-bids.md): the
// winner's order, or a runner-up's, carries the package's bids; once paid they are credited
// once, whatever repeats, and the order is delivered with no delivery step.

const { engine, outbox, prisma } = testEngine()
afterAll(() => outbox.stop())

/** A finished bid-package auction of `bids` bids won by `winner` at `price`, `runnerUp` before. */
async function finishedPackage(bids: number, winner: string, runnerUp?: string) {
  const end = new Date(Date.now() - 60_000)
  const auction = await createAuction(prisma, { startTime: new Date(end.getTime() - 3_600_000) })
  await prisma.bid.createMany({
    data: [
      ...(runnerUp ? [{ auctionId: auction.id, userId: runnerUp, amount: 4, createdAt: end }] : []),
      { auctionId: auction.id, userId: winner, amount: 5, createdAt: new Date(end.getTime() + 1) },
    ],
  })
  await prisma.auction.update({
    where: { id: auction.id },
    data: {
      isBidPackage: true,
      packageBids: bids,
      status: 'finished',
      endTime: end,
      finalPrice: 5,
      currentPrice: 5,
      winnerId: winner,
    },
  })
  await createWinnerOrders(prisma, new Date())
  const order = await prisma.order.findFirstOrThrow({ where: { auctionId: auction.id } })
  return { auction, order, end }
}

const markPaid = (orderId: string) =>
  prisma.order.update({ where: { id: orderId }, data: { status: 'paid', paidAt: new Date() } })

const ledgerOf = async (orderId: string) => {
  await outbox.drain()
  return prisma.balanceLedger.findMany({
    where: { reference: packageOrderReference(orderId) },
    select: { userId: true, amount: true, reason: true },
  })
}

/** The invariant: every balance is its ledger sum, and every paid package order credited once. */
async function expectInvariant() {
  await outbox.drain()
  const balances = await auditBalances(engine)
  expect(balances.outboxLag).toBe(0)
  expect(balances.mismatches).toEqual([])
  expect(await auditPackageOrders(engine)).toEqual([])
}

describe('bid-package orders', () => {
  test('the win order carries the package’s bids; an item’s carries none', async () => {
    const winner = await createUser(prisma, 0)
    const { order } = await finishedPackage(50, winner.id)
    expect(order).toMatchObject({ userId: winner.id, kind: 'win', price: 5, bids: 50 })
    expect(await creditPackageOrder(engine, order.id)).toBe('not_due')
    expect(await engine.getBalance(winner.id)).toBe(0)
  })

  test('paid, its bids are credited once however often it is asked, and it is delivered', async () => {
    const winner = await createUser(prisma, 0)
    const { order } = await finishedPackage(50, winner.id)
    await markPaid(order.id)
    // A repeated callback, a retried request and the worker, all at once.
    const answers = await Promise.all([
      creditPackageOrder(engine, order.id),
      creditPackageOrder(engine, order.id),
      creditOwedPackageOrders(engine),
      creditPackageOrder(engine, order.id),
    ])
    expect(answers.filter((answer) => answer === 'credited' || answer === 1)).toHaveLength(1)
    expect(await creditPackageOrder(engine, order.id)).toBe('already')
    expect(await engine.getBalance(winner.id)).toBe(50)
    expect(await prisma.order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({
      status: 'delivered',
      deliveredAt: expect.any(Date),
    })
    expect(await ledgerOf(order.id)).toEqual([
      { userId: winner.id, amount: 50, reason: 'bid_package_win' },
    ])
    await expectInvariant()
  })

  test('a runner-up’s offer carries the same bids and credits them the same way', async () => {
    const [winner, runnerUp] = [await createUser(prisma, 0), await createUser(prisma, 0)]
    const { auction, order, end } = await finishedPackage(100, winner.id, runnerUp.id)
    await expireOrders(prisma, new Date(end.getTime() + PAYMENT_WINDOW_MS + 1000))
    const offer = await prisma.order.findFirstOrThrow({
      where: { auctionId: auction.id, userId: runnerUp.id },
    })
    expect(offer).toMatchObject({ kind: 'win', rank: 2, price: 4, bids: 100 })
    await markPaid(offer.id)
    expect(await creditPackageOrder(engine, offer.id)).toBe('credited')
    expect(await creditPackageOrder(engine, order.id)).toBe('not_due')
    expect(await engine.getBalance(runnerUp.id)).toBe(100)
    expect(await engine.getBalance(winner.id)).toBe(0)
    await expectInvariant()
  })

  test('an order cancelled or refunded before its credit gets no bids', async () => {
    const winner = await createUser(prisma, 0)
    const { order } = await finishedPackage(50, winner.id)
    await prisma.order.update({ where: { id: order.id }, data: { status: 'cancelled' } })
    expect(await creditPackageOrder(engine, order.id)).toBe('not_due')
    expect(await creditOwedPackageOrders(engine)).toBe(0)
    expect(await engine.getBalance(winner.id)).toBe(0)
    expect(await ledgerOf(order.id)).toEqual([])
  })

  test('a paid order whose credit did not happen is credited by the order worker', async () => {
    const winner = await createUser(prisma, 0)
    const { order } = await finishedPackage(250, winner.id)
    // Marked paid, then the process stopped before the credit (or Redis was away).
    await markPaid(order.id)
    await outbox.drain()
    expect(await auditPackageOrders(engine)).toEqual([
      { orderId: order.id, reference: null, problem: 'paid_not_credited' },
    ])
    await new OrderWorker(engine).tick()
    expect(await engine.getBalance(winner.id)).toBe(250)
    await expectInvariant()
  })

  test('a credit lost with Redis before the outbox wrote it is credited again, once', async () => {
    const winner = await createUser(prisma, 0)
    const { order } = await finishedPackage(50, winner.id)
    await markPaid(order.id)
    expect(await creditPackageOrder(engine, order.id)).toBe('credited')
    // Redis loses the credit, its reference and the outbox entry before Postgres had them.
    await engine.redis.xtrim(engine.keys.outbox, 'MAXLEN', 0)
    await engine.redis.srem(engine.keys.references, packageOrderReference(order.id))
    await engine.redis.del(engine.keys.user(winner.id))
    expect(await engine.getBalance(winner.id)).toBe(0)
    expect(await creditOwedPackageOrders(engine)).toBeGreaterThanOrEqual(1)
    expect(await creditOwedPackageOrders(engine)).toBe(0)
    expect(await engine.getBalance(winner.id)).toBe(50)
    await expectInvariant()
  })
})
