import { describe, expect, test } from 'vitest'
import { AutoBidWorker } from './auto-bid-worker.ts'
import type { Engine } from './engine.ts'
import { refundHolds } from './refunds.ts'
import { Sweeper } from './sweeper.ts'
import {
  createUser,
  liveAuction,
  sleep,
  testEngine,
  upcomingAuction,
  waitFor,
} from './test-support.ts'

// Shortened timer: the window and safety margin scale down with it.
const TIMER_MS = 2_000
const WINDOW_MS = 800
const SAFETY_MS = 150

function runtime(engine: Engine) {
  const worker = new AutoBidWorker(engine, { windowMs: WINDOW_MS, safetyMs: SAFETY_MS, tickMs: 40 })
  const sweeper = new Sweeper(engine)
  worker.start()
  sweeper.start()
  return {
    async stop() {
      worker.stop()
      await sweeper.stop()
    },
  }
}

async function ledgerSum(engine: Engine, userId: string) {
  const rows = await engine.prisma.balanceLedger.findMany({ where: { userId } })
  return rows.reduce((sum, row) => sum + row.amount, 0)
}

describe('auto-bidder', () => {
  test('two auto-bidders and a manual bidder: budgets kept, no self-outbid, last seconds only, leftovers back once', async () => {
    const { engine, outbox, prisma } = testEngine({ timerMs: TIMER_MS })
    const auction = await liveAuction(engine)
    const [a, b, m] = [
      await createUser(prisma, 10),
      await createUser(prisma, 10),
      await createUser(prisma, 10),
    ]
    expect(await engine.setAutoBid(auction.id, a.id, 2)).toMatchObject({
      ok: true,
      balance: 8,
      left: 2,
      placed: 0,
    })
    expect(await engine.setAutoBid(auction.id, b.id, 5)).toMatchObject({ ok: true, balance: 5 })

    // Every bid, with how long the timer it interrupted still had to run.
    const bids: Array<{ userId: string | null; remaining: number; manual: boolean }> = []
    let deadline = (await engine.getState(auction.id))!.deadline!
    engine.on('bid', ({ userId, state }) => {
      bids.push({ userId, remaining: deadline - state.at, manual: userId === m.id })
      deadline = state.deadline
    })

    const running = runtime(engine)
    expect((await engine.bid(auction.id, m.id)).ok).toBe(true)
    // The manual bidder comes back once after the auto-bidders have started fighting.
    await waitFor(async () => bids.length >= 3)
    expect((await engine.bid(auction.id, m.id)).ok).toBe(true)
    await waitFor(async () => (await engine.getState(auction.id))?.status === 'finished')
    await waitFor(async () => (await engine.getAutoBidAuctions()).length === 0)
    await running.stop()

    const autoBids = bids.filter((bid) => !bid.manual)
    const placedA = autoBids.filter((bid) => bid.userId === a.id).length
    const placedB = autoBids.filter((bid) => bid.userId === b.id).length
    expect(placedA).toBe(2)
    expect(placedB).toBeGreaterThanOrEqual(2)
    expect(placedB).toBeLessThanOrEqual(5)
    for (const bid of autoBids) {
      expect(bid.remaining).toBeLessThanOrEqual(WINDOW_MS)
      expect(bid.remaining).toBeGreaterThan(0)
    }
    for (let i = 1; i < bids.length; i++) expect(bids[i]!.userId).not.toBe(bids[i - 1]!.userId)
    const history = (await engine.getRecentBids(auction.id)).reverse()
    expect(history.map((bid) => bid.bidder)).toEqual(bids.map((bid) => bid.userId))

    // Leftovers went back once: a second return finds nothing.
    expect(await engine.getBalance(a.id)).toBe(8)
    expect(await engine.getBalance(b.id)).toBe(10 - placedB)
    expect((await engine.returnAutoBids(auction.id))!.size).toBe(0)
    expect(await engine.getBalance(b.id)).toBe(10 - placedB)
    expect(await engine.getAutoBid(auction.id, b.id)).toBeNull()

    await outbox.drain()
    const rows = await prisma.autoBid.findMany({ where: { auctionId: auction.id } })
    expect(rows.find((row) => row.userId === a.id)).toMatchObject({
      budget: 2,
      placed: 2,
      returned: 0,
      status: 'finished',
    })
    expect(rows.find((row) => row.userId === b.id)).toMatchObject({
      budget: 5,
      placed: placedB,
      returned: 5 - placedB,
      status: 'finished',
    })
    const stored = await prisma.bid.findMany({ where: { auctionId: auction.id } })
    expect(stored).toHaveLength(bids.length)
    expect(stored.filter((bid) => bid.isAuto && bid.userId === a.id)).toHaveLength(2)
    expect(stored.filter((bid) => bid.isAuto && bid.userId === b.id)).toHaveLength(placedB)
    expect(stored.filter((bid) => bid.userId === m.id).every((bid) => !bid.isAuto)).toBe(true)
    for (const [user, placed] of [
      [a, placedA],
      [b, placedB],
      [m, 2],
    ] as const) {
      const row = await prisma.user.findUniqueOrThrow({ where: { id: user.id } })
      expect(row.bidBalance).toBe(await engine.getBalance(user.id))
      expect(row).toMatchObject({ bidBalance: 10 - placed, totalBids: placed, totalSpent: placed })
      expect(await ledgerSum(engine, user.id)).toBe(row.bidBalance - 10)
    }
    const ledgerB = await prisma.balanceLedger.findMany({
      where: { userId: b.id },
      orderBy: { createdAt: 'asc' },
    })
    expect(ledgerB.map((row) => [row.reason, row.amount])).toEqual([
      ['autobid_reserve', -5],
      ...(placedB < 5 ? [['autobid_return', 5 - placedB]] : []),
    ])
    const auctionRow = await prisma.auction.findUniqueOrThrow({ where: { id: auction.id } })
    expect(auctionRow.totalBids).toBe(bids.length)
  }, 40_000)

  test('set before the start, topped up, bids once the auction runs, stop returns the rest', async () => {
    const { engine, outbox, prisma } = testEngine({ timerMs: TIMER_MS })
    const auction = await upcomingAuction(engine, 1_000)
    const user = await createUser(prisma, 10)
    expect(await engine.setAutoBid(auction.id, user.id, 3)).toMatchObject({ ok: true, left: 3 })
    expect(await engine.setAutoBid(auction.id, user.id, 2)).toMatchObject({
      ok: true,
      balance: 5,
      left: 5,
    })
    const running = runtime(engine)
    await waitFor(async () => (await engine.getAutoBid(auction.id, user.id))?.placed === 1)
    const state = await engine.getState(auction.id)
    expect(state).toMatchObject({ status: 'live', lastBidder: user.id, bids: 1 })
    // Leading: the auto-bidder does not outbid its own user.
    await sleep(TIMER_MS - WINDOW_MS)
    expect(await engine.getAutoBid(auction.id, user.id)).toEqual({ left: 4, placed: 1 })
    expect(await engine.stopAutoBid(auction.id, user.id)).toEqual({
      ok: true,
      returned: 4,
      balance: 9,
    })
    expect(await engine.stopAutoBid(auction.id, user.id)).toEqual({
      ok: false,
      reason: 'no_auto_bid',
    })
    await waitFor(async () => (await engine.getState(auction.id))?.status === 'finished')
    await waitFor(async () => (await engine.getAutoBidAuctions()).length === 0)
    await running.stop()
    expect(await engine.getBalance(user.id)).toBe(9)

    await outbox.drain()
    expect(
      await prisma.autoBid.findUniqueOrThrow({
        where: { auctionId_userId: { auctionId: auction.id, userId: user.id } },
      }),
    ).toMatchObject({ budget: 5, placed: 1, returned: 4, status: 'finished' })
    const ledger = await prisma.balanceLedger.findMany({
      where: { userId: user.id },
      orderBy: { createdAt: 'asc' },
    })
    expect(ledger.map((row) => [row.reason, row.amount, row.balanceAfter])).toEqual([
      ['autobid_reserve', -3, 7],
      ['autobid_reserve', -2, 5],
      ['autobid_return', 4, 9],
    ])
    const row = await prisma.user.findUniqueOrThrow({ where: { id: user.id } })
    expect(row).toMatchObject({ bidBalance: 9, totalBids: 1, totalSpent: 1 })
    expect(await prisma.bid.count({ where: { auctionId: auction.id, isAuto: true } })).toBe(1)
  }, 30_000)

  test('refuses bad amounts, short balances, unknown and finished auctions, and takes nothing', async () => {
    const { engine } = testEngine({ timerMs: 300 })
    const auction = await liveAuction(engine)
    const user = await createUser(engine.prisma, 4)
    for (const bids of [0, -1, 1.5, 1001, Number.NaN]) {
      expect(await engine.setAutoBid(auction.id, user.id, bids)).toEqual({
        ok: false,
        reason: 'invalid_bids',
      })
    }
    expect(await engine.setAutoBid(auction.id, user.id, 5)).toEqual({
      ok: false,
      reason: 'insufficient_bids',
    })
    expect(await engine.setAutoBid('nope', user.id, 1)).toEqual({
      ok: false,
      reason: 'auction_not_found',
    })
    expect(await engine.setAutoBid(auction.id, 'nobody', 1)).toEqual({
      ok: false,
      reason: 'user_not_found',
    })
    // Not started by anyone's budget: returning while live gives nothing back.
    expect((await engine.setAutoBid(auction.id, user.id, 1)).ok).toBe(true)
    expect(await engine.returnAutoBids(auction.id)).toBeNull()
    await sleep(400)
    await engine.sweep()
    expect(await engine.setAutoBid(auction.id, user.id, 1)).toEqual({
      ok: false,
      reason: 'auction_ended',
    })
    expect(await engine.autoBid(auction.id, user.id)).toEqual({
      ok: false,
      reason: 'auction_ended',
    })
    expect([...(await engine.returnAutoBids(auction.id))!]).toEqual([[user.id, 1]])
    expect(await engine.getBalance(user.id)).toBe(4)
  })

  test('an auto bid follows the manual rules: budget, leader, pace', async () => {
    const { engine } = testEngine()
    const auction = await liveAuction(engine)
    const [user, other] = [await createUser(engine.prisma, 3), await createUser(engine.prisma, 3)]
    expect(await engine.autoBid(auction.id, user.id)).toEqual({ ok: false, reason: 'no_budget' })
    await engine.setAutoBid(auction.id, user.id, 1)
    const placed = await engine.autoBid(auction.id, user.id)
    expect(placed).toMatchObject({ ok: true, balance: 2 })
    expect(await engine.autoBid(auction.id, user.id)).toEqual({
      ok: false,
      reason: 'already_leading',
    })
    expect((await engine.bid(auction.id, other.id)).ok).toBe(true)
    expect(await engine.autoBid(auction.id, user.id)).toEqual({ ok: false, reason: 'too_fast' })
    await sleep(1_050)
    expect(await engine.autoBid(auction.id, user.id)).toEqual({ ok: false, reason: 'no_budget' })
    expect(await engine.getBalance(user.id)).toBe(2)
  })

  test('budgets of an auction that finished while no worker ran go back on the next tick', async () => {
    const { engine, outbox, prisma } = testEngine({ timerMs: 300 })
    const auction = await liveAuction(engine)
    const user = await createUser(prisma, 6)
    await engine.setAutoBid(auction.id, user.id, 6)
    await sleep(400)
    expect((await engine.sweep()).finished).toEqual([auction.id])
    expect(await engine.getBalance(user.id)).toBe(0)
    const worker = new AutoBidWorker(engine, { tickMs: 40 })
    await worker.tick()
    expect(await engine.getBalance(user.id)).toBe(6)
    expect(await engine.getAutoBidAuctions()).toEqual([])
    await worker.tick()
    expect(await engine.getBalance(user.id)).toBe(6)
    await outbox.drain()
    expect(await ledgerSum(engine, user.id)).toBe(0)
    expect(
      await prisma.autoBid.findFirstOrThrow({ where: { auctionId: auction.id, userId: user.id } }),
    ).toMatchObject({ budget: 6, placed: 0, returned: 6, status: 'finished' })
  })

  test('an upcoming auction taken out pays its budgets back from Postgres, once', async () => {
    const { engine, outbox } = testEngine()
    const auction = await upcomingAuction(engine)
    const user = await createUser(engine.prisma, 5)
    await engine.setAutoBid(auction.id, user.id, 4)
    expect(await engine.returnAutoBids(auction.id)).toBeNull()
    const removed = await engine.removeAuction(auction.id, 'upcoming')
    // The budget left Redis with the auction; the worker finds nothing to return there.
    expect(await engine.getAutoBidAuctions()).toEqual([])
    expect((await engine.returnAutoBids(auction.id))!.size).toBe(0)
    await outbox.drain()
    expect(removed.ok && (await engine.outboxWrittenThrough(removed.through))).toBe(true)
    expect(await refundHolds(engine, auction.id)).toEqual({ prebids: 0, budgets: 1 })
    expect(await refundHolds(engine, auction.id)).toEqual({ prebids: 0, budgets: 0 })
    expect(await engine.getBalance(user.id)).toBe(5)
    await outbox.drain()
    expect(await ledgerSum(engine, user.id)).toBe(0)
    expect(
      await engine.prisma.autoBid.findFirstOrThrow({ where: { auctionId: auction.id } }),
    ).toMatchObject({ budget: 4, returned: 4, status: 'finished' })
  })
})
