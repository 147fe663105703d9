import { describe, expect, test } from 'vitest'
import { createWinnerOrders, expireOrders, PAYMENT_WINDOW_MS } from './orders.ts'
import { createAuction, createUser, testPrisma } from './test-support.ts'

const prisma = testPrisma()
const HOUR = 60 * 60 * 1000

/**
 * A finished auction written as the outbox writes one, with bids at given minutes before the
 * end: `who` is a user id or `bot`.
 */
async function finishedAuction(
  endTime: Date,
  bids: Array<{ who: string; amount: number; minutesBefore: number }>,
  winner: string | null,
) {
  const auction = await createAuction(prisma, { startTime: new Date(endTime.getTime() - 2 * HOUR) })
  await prisma.bid.createMany({
    data: bids.map((bid) => ({
      auctionId: auction.id,
      userId: bid.who === 'bot' ? null : bid.who,
      isBot: bid.who === 'bot',
      botName: bid.who === 'bot' ? 'Бот' : null,
      amount: bid.amount,
      createdAt: new Date(endTime.getTime() - bid.minutesBefore * 60_000),
    })),
  })
  const top = Math.max(...bids.map((bid) => bid.amount))
  return prisma.auction.update({
    where: { id: auction.id },
    data: { status: 'finished', endTime, finalPrice: top, currentPrice: top, winnerId: winner },
  })
}

const winOrders = (auctionId: string) =>
  prisma.order.findMany({ where: { auctionId, kind: 'win' }, orderBy: { rank: 'asc' } })

describe('winner orders', () => {
  test('the winner gets one order at the final price, due 48 hours after the end', async () => {
    const [winner, other] = [await createUser(prisma), await createUser(prisma)]
    const end = new Date()
    const auction = await finishedAuction(
      end,
      [
        { who: other.id, amount: 5, minutesBefore: 2 },
        { who: winner.id, amount: 6, minutesBefore: 1 },
      ],
      winner.id,
    )
    const now = new Date(end.getTime() + 1000)
    expect(await createWinnerOrders(prisma, now)).toBeGreaterThanOrEqual(1)
    // A second run (or a second instance) changes nothing.
    await Promise.all([createWinnerOrders(prisma, now), createWinnerOrders(prisma, now)])
    const orders = await winOrders(auction.id)
    expect(orders).toHaveLength(1)
    expect(orders[0]).toMatchObject({
      userId: winner.id,
      kind: 'win',
      rank: 1,
      price: 6,
      status: 'awaiting_payment',
      expiresAt: new Date(end.getTime() + PAYMENT_WINDOW_MS),
    })
  })

  test('a house win (no human winner) gets no order', async () => {
    const user = await createUser(prisma)
    const end = new Date()
    const auction = await finishedAuction(
      end,
      [
        { who: user.id, amount: 1, minutesBefore: 2 },
        { who: 'bot', amount: 2, minutesBefore: 1 },
      ],
      null,
    )
    await createWinnerOrders(prisma, new Date(end.getTime() + 1000))
    expect(await winOrders(auction.id)).toHaveLength(0)
  })

  test('unpaid orders pass down the line of human bidders, then stop', async () => {
    const [first, second, third, fourth] = [
      await createUser(prisma),
      await createUser(prisma),
      await createUser(prisma),
      await createUser(prisma),
    ]
    const end = new Date(Date.now() - 1000)
    // Last bids, newest first: first (10), bot (9), third (8, after an earlier 4), second (7),
    // first again earlier (3), fourth (2).
    const auction = await finishedAuction(
      end,
      [
        { who: fourth.id, amount: 2, minutesBefore: 9 },
        { who: first.id, amount: 3, minutesBefore: 8 },
        { who: third.id, amount: 4, minutesBefore: 7 },
        { who: second.id, amount: 7, minutesBefore: 4 },
        { who: third.id, amount: 8, minutesBefore: 3 },
        { who: 'bot', amount: 9, minutesBefore: 2 },
        { who: first.id, amount: 10, minutesBefore: 1 },
      ],
      first.id,
    )
    await createWinnerOrders(prisma, new Date(end.getTime() + 1000))

    // Not yet due: nothing moves.
    let now = new Date(end.getTime() + PAYMENT_WINDOW_MS - 1000)
    await expireOrders(prisma, now)
    expect((await winOrders(auction.id)).map((o) => o.status)).toEqual(['awaiting_payment'])

    // 48 hours pass: the winner's order expires; the bot is skipped; third bid last before them.
    now = new Date(end.getTime() + PAYMENT_WINDOW_MS + 1000)
    await Promise.all([expireOrders(prisma, now), expireOrders(prisma, now)])
    let orders = await winOrders(auction.id)
    expect(orders.map((o) => [o.userId, o.rank, o.price, o.status])).toEqual([
      [first.id, 1, 10, 'expired'],
      [third.id, 2, 8, 'awaiting_payment'],
    ])
    expect(orders[1]!.expiresAt).toEqual(new Date(now.getTime() + PAYMENT_WINDOW_MS))

    // The runner-up does not pay either: second, at their own last bid.
    now = new Date(now.getTime() + PAYMENT_WINDOW_MS)
    await expireOrders(prisma, now)
    orders = await winOrders(auction.id)
    expect(orders.map((o) => [o.userId, o.rank, o.price, o.status])).toEqual([
      [first.id, 1, 10, 'expired'],
      [third.id, 2, 8, 'expired'],
      [second.id, 3, 7, 'awaiting_payment'],
    ])

    // Third expiry: first (an earlier holder) is skipped although their bid of 3 is next.
    now = new Date(now.getTime() + PAYMENT_WINDOW_MS)
    await expireOrders(prisma, now)
    orders = await winOrders(auction.id)
    expect(orders.at(-1)).toMatchObject({ userId: fourth.id, rank: 4, price: 2 })
    expect(orders).toHaveLength(4)

    // Nobody left: the last order expires and no new one appears.
    now = new Date(now.getTime() + PAYMENT_WINDOW_MS)
    await expireOrders(prisma, now)
    orders = await winOrders(auction.id)
    expect(orders).toHaveLength(4)
    expect(orders.every((o) => o.status === 'expired')).toBe(true)
  })

  test('paid orders never expire, and a Buy It Now order just expires', async () => {
    const [winner, loser] = [await createUser(prisma), await createUser(prisma)]
    const end = new Date(Date.now() - 1000)
    const auction = await finishedAuction(
      end,
      [
        { who: loser.id, amount: 1, minutesBefore: 2 },
        { who: winner.id, amount: 2, minutesBefore: 1 },
      ],
      winner.id,
    )
    await createWinnerOrders(prisma, new Date(end.getTime() + 1000))
    await prisma.order.updateMany({
      where: { auctionId: auction.id, kind: 'win' },
      data: { status: 'paid', paidAt: new Date(end.getTime() + HOUR) },
    })
    const buyNow = await prisma.order.create({
      data: {
        auctionId: auction.id,
        userId: loser.id,
        kind: 'buy_now',
        price: 50_000,
        expiresAt: new Date(end.getTime() + PAYMENT_WINDOW_MS),
      },
    })
    await expireOrders(prisma, new Date(end.getTime() + 10 * PAYMENT_WINDOW_MS))
    const orders = await prisma.order.findMany({ where: { auctionId: auction.id } })
    expect(orders).toHaveLength(2)
    expect(orders.find((o) => o.kind === 'win')).toMatchObject({
      userId: winner.id,
      status: 'paid',
    })
    expect(orders.find((o) => o.id === buyNow.id)).toMatchObject({ status: 'expired' })
  })

  test('auctions that ended before the lookback get no order', async () => {
    const winner = await createUser(prisma)
    const end = new Date(Date.now() - 60 * 24 * HOUR)
    const auction = await finishedAuction(
      end,
      [{ who: winner.id, amount: 1, minutesBefore: 1 }],
      winner.id,
    )
    await createWinnerOrders(prisma, new Date())
    expect(await winOrders(auction.id)).toHaveLength(0)
  })
})
