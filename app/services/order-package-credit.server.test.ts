import type { TFunction } from 'i18next'
import { afterAll, describe, expect, test } from 'vitest'
import {
  auditBalances,
  auditPackageOrders,
  createWinnerOrders,
  Engine,
  OutboxWorker,
  packageOrderReference,
} from '../../engine/index.ts'
import { createAuction, updateAuction } from '~/models/admin-auctions.server.ts'
import { getAdminOrder } from '~/models/admin-orders.server.ts'
import { setOrderStatus } from '~/services/order-status.server.ts'
import { setDelivery } from '~/models/order.server.ts'
import { createOrderPayment, getUserOrder, orderNotPayable } from '~/models/payment.server.ts'
import { applyPaymentEvent } from '~/services/payments/apply-event.server.ts'
import { getRedis } from '~/utils/redis.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import { getEnv } from '~/utils/env.server.ts'
import { auctionCreateSchema } from '~/validation/admin-auctions.ts'
import { refundCandidate } from '~/validation/order.ts'

// A bid-package auction's order as the site pays it (docs/rules.md#bid-package-auctions,
// docs/decisions/077-bid-package-orders-credit-bids.md): its bids are credited once, in the
// ledger, whether it is paid twice, its callback comes again, a request is retried, or an admin
// marks it paid; the invariant at the end holds over everything the file did.

const engine = new Engine({ redis: getRedis(), prisma: getPrisma(), prefix: getEnv().REDIS_PREFIX })
const outbox = new OutboxWorker(engine, 'package-credit-test', getEnv().DATABASE_URL)
afterAll(() => outbox.stop())
const t = ((key: string) => key) as unknown as TFunction

let counter = 0
async function person() {
  const name = `pk${Date.now().toString(36)}${counter++}`
  return getPrisma().user.create({
    data: { username: name, email: `${name}@mail.kg` },
    select: { id: true },
  })
}

const inAnHour = () => new Date(Date.now() + 3_600_000)
const packageInput = (retailPrice: number, packageBids?: number) => ({
  title: `Пакет ${counter++}`,
  description: null,
  imageUrl: null,
  retailPrice,
  startTime: inAnHour(),
  condition: null,
  category: null,
  featured: false,
  isBidPackage: true,
  packageBids,
})

/** A bid-package auction of `bids` bids, finished and won by `winner` at 12.34 som. */
async function wonPackage(bids: number, winner: string) {
  const auction = await createAuction(engine, packageInput(1_000_00, bids))
  const end = new Date(Date.now() - 1000)
  await getPrisma().bid.create({
    data: { auctionId: auction.id, userId: winner, amount: 12_34, createdAt: end },
  })
  await getPrisma().auction.update({
    where: { id: auction.id },
    data: { status: 'finished', endTime: end, finalPrice: 12_34, winnerId: winner },
  })
  await createWinnerOrders(getPrisma(), new Date())
  return getPrisma().order.findFirstOrThrow({ where: { auctionId: auction.id } })
}

const paid = (paymentId: string, transactionId: string, canReject = false) => ({
  paymentId,
  transactionId,
  status: 'paid' as const,
  amount: 12_34,
  currency: 'KGS',
  canReject,
})

async function credits(orderId: string) {
  await outbox.drain()
  return getPrisma().balanceLedger.findMany({
    where: { reference: packageOrderReference(orderId) },
    select: { userId: true, amount: true, reason: true },
  })
}

describe('how many bids a package holds', () => {
  test('left out, what the retail price buys at 15 som a bid, rounded down; else as given', async () => {
    expect((await createAuction(engine, packageInput(1_000_00))).packageBids).toBe(66)
    expect((await createAuction(engine, packageInput(750_00))).packageBids).toBe(50)
    expect((await createAuction(engine, packageInput(10_00))).packageBids).toBe(1)
    const given = await createAuction(engine, packageInput(1_000_00, 50))
    expect(given.packageBids).toBe(50)
    // An edit that leaves it out follows the new retail price, as the API's PUT replaces.
    const { isBidPackage: _, ...edit } = packageInput(1_500_00)
    expect((await updateAuction(engine, given.id, edit)).packageBids).toBe(100)
    expect((await updateAuction(engine, given.id, { ...edit, packageBids: 7 })).packageBids).toBe(7)
  })

  test('an item has none, and giving it one is refused', async () => {
    const created = await createAuction(engine, { ...packageInput(500_00), isBidPackage: false })
    expect(created.packageBids).toBeNull()
    const { isBidPackage: _, ...edit } = packageInput(500_00, 10)
    await expect(updateAuction(engine, created.id, edit)).rejects.toMatchObject({
      status: 400,
      key: 'errors.notBidPackage',
    })
    // The form's and the API's fields: som, a start time, a checkbox.
    const form = { title: 'Лот', retailPrice: '500', startTime: '2099-01-01T10:00' }
    const item = auctionCreateSchema.safeParse({ ...form, isBidPackage: '', packageBids: '10' })
    expect(item.error?.issues).toMatchObject([
      { path: ['packageBids'], message: 'errors.notBidPackage' },
    ])
    for (const bad of ['0', '-3', '2.5', 'many', 10_000_001]) {
      const parsed = auctionCreateSchema.safeParse({
        ...form,
        isBidPackage: 'on',
        packageBids: bad,
      })
      expect(parsed.error?.issues).toMatchObject([
        { path: ['packageBids'], message: 'errors.packageBids' },
      ])
    }
    expect(
      auctionCreateSchema.parse({ ...form, isBidPackage: true, packageBids: '' }).packageBids,
    ).toBeUndefined()
  })
})

describe('a bid-package order', () => {
  test('has no delivery step: it can be paid at once, and delivery is refused', async () => {
    const { id: winner } = await person()
    const order = await wonPackage(50, winner)
    expect(order).toMatchObject({ bids: 50, price: 12_34, deliveryMethod: null })
    expect(orderNotPayable((await getUserOrder(winner, order.id))!)).toBeNull()
    await expect(
      setDelivery(winner, order.id, { deliveryMethod: 'pickup', address: undefined }),
    ).rejects.toMatchObject({ status: 409, key: 'errors.noDelivery' })
  })

  test('paid twice, its callback repeated and retried at once: its bids are credited once', async () => {
    const { id: winner } = await person()
    const order = await wonPackage(50, winner)
    const total = { id: order.id, total: order.price }
    const [first, second] = [
      await createOrderPayment(winner, 'sandbox', total),
      await createOrderPayment(winner, 'sandbox', total),
    ]
    const answers = await Promise.all(
      [1, 2, 3].map(() => applyPaymentEvent('sandbox', paid(first.id, 'txn-a'), engine, t)),
    )
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200])
    expect(await engine.getBalance(winner)).toBe(50)
    const row = await getPrisma().order.findUniqueOrThrow({ where: { id: order.id } })
    expect(row).toMatchObject({ status: 'delivered', paidAt: expect.any(Date) })

    // The second checkout is paid too: its money waits for a refund, no bids come of it.
    const twice = await applyPaymentEvent('sandbox', paid(second.id, 'txn-b'), engine, t)
    expect(twice.status).toBe(200)
    expect(await engine.getBalance(winner)).toBe(50)
    expect(await credits(order.id)).toEqual([
      { userId: winner, amount: 50, reason: 'bid_package_win' },
    ])
    const admin = (await getAdminOrder(order.id))!
    expect(refundCandidate(admin.status, admin.payments)).toMatchObject({
      payment: { id: second.id },
      cancelOrder: false,
    })
  })

  test('an admin’s "paid" (cash) credits it once; it is never shipped or delivered by hand', async () => {
    const { id: winner } = await person()
    const order = await wonPackage(100, winner)
    await expect(setOrderStatus(engine, order.id, 'shipped')).rejects.toMatchObject({
      status: 409,
    })
    expect(await setOrderStatus(engine, order.id, 'paid')).toMatchObject({ status: 'delivered' })
    await expect(setOrderStatus(engine, order.id, 'paid')).rejects.toMatchObject({ status: 409 })
    await expect(setOrderStatus(engine, order.id, 'cancelled')).rejects.toMatchObject({
      status: 409,
    })
    expect(await engine.getBalance(winner)).toBe(100)
    expect(await credits(order.id)).toHaveLength(1)
  })

  test('ledger = balances, and each paid bid-package order is credited exactly once', async () => {
    await outbox.drain()
    const audit = await auditBalances(engine)
    expect(audit).toMatchObject({ outboxLag: 0, mismatches: [] })
    expect(await auditPackageOrders(engine)).toEqual([])
    const delivered = await getPrisma().order.findMany({
      where: { bids: { gt: 0 }, status: { in: ['paid', 'delivered'] } },
      select: { id: true, bids: true, userId: true },
    })
    expect(delivered.length).toBeGreaterThanOrEqual(2)
    for (const order of delivered)
      expect(await credits(order.id)).toEqual([
        { userId: order.userId, amount: order.bids, reason: 'bid_package_win' },
      ])
  })
})
