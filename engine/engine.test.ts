import { describe, expect, test } from 'vitest'
import {
  createAuction,
  createUser,
  liveAuction,
  sleep,
  startNow,
  testEngine,
  upcomingAuction,
} from './test-support.ts'
import { ADMIN_BALANCE_MAX } from './types.ts'

describe('bid', () => {
  test('debits one bid, raises the price by the increment and resets the timer', async () => {
    const { engine } = testEngine()
    const auction = await liveAuction(engine, 500)
    const user = await createUser(engine.prisma, 3)
    const result = await engine.bid(auction.id, user.id)
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.price).toBe(501)
    expect(result.balance).toBe(2)
    expect(result.bids).toBe(1)
    expect(result.deadline - result.at).toBe(10_000)
    const state = await engine.getState(auction.id)
    expect(state).toMatchObject({
      status: 'live',
      price: 501,
      lastBidder: user.id,
      lastBidderName: user.username,
      bids: 1,
    })
    expect(state!.deadline).toBe(result.deadline)
    expect(await engine.getBalance(user.id)).toBe(2)
    const [recent] = await engine.getRecentBids(auction.id)
    expect(recent).toMatchObject({
      id: result.bidId,
      bidder: user.id,
      name: user.username,
      price: 501,
      bot: false,
    })
  })

  test('each later bid moves the deadline to 10 s after it', async () => {
    const { engine } = testEngine()
    const auction = await liveAuction(engine)
    const [a, b] = [await createUser(engine.prisma), await createUser(engine.prisma)]
    const first = await engine.bid(auction.id, a.id)
    await sleep(300)
    const second = await engine.bid(auction.id, b.id)
    if (!first.ok || !second.ok) throw new Error('bids refused')
    expect(second.deadline).toBe(second.at + 10_000)
    expect(second.deadline - first.deadline).toBeGreaterThanOrEqual(300)
  })

  test('refuses an unknown auction', async () => {
    const { engine } = testEngine()
    const user = await createUser(engine.prisma)
    expect(await engine.bid('no-such-auction', user.id)).toEqual({
      ok: false,
      reason: 'auction_not_found',
    })
  })

  test('refuses an auction that has not started', async () => {
    const { engine } = testEngine()
    const auction = await upcomingAuction(engine)
    const user = await createUser(engine.prisma)
    expect(await engine.bid(auction.id, user.id)).toEqual({ ok: false, reason: 'auction_not_live' })
  })

  test('refuses the user who is already leading', async () => {
    const { engine } = testEngine()
    const auction = await liveAuction(engine)
    const user = await createUser(engine.prisma)
    expect((await engine.bid(auction.id, user.id)).ok).toBe(true)
    expect(await engine.bid(auction.id, user.id)).toEqual({ ok: false, reason: 'already_leading' })
  })

  test('refuses a second bid by one user within 1 s, on any auction', async () => {
    const { engine } = testEngine()
    const [one, two] = [await liveAuction(engine), await liveAuction(engine)]
    const user = await createUser(engine.prisma)
    expect((await engine.bid(one.id, user.id)).ok).toBe(true)
    expect(await engine.bid(two.id, user.id)).toEqual({ ok: false, reason: 'too_fast' })
    await sleep(1050)
    expect((await engine.bid(two.id, user.id)).ok).toBe(true)
  })

  test('refuses a user without bids and takes nothing', async () => {
    const { engine } = testEngine()
    const auction = await liveAuction(engine, 100)
    const user = await createUser(engine.prisma, 0)
    expect(await engine.bid(auction.id, user.id)).toEqual({
      ok: false,
      reason: 'insufficient_bids',
    })
    expect(await engine.getBalance(user.id)).toBe(0)
    expect((await engine.getState(auction.id))!.price).toBe(100)
  })

  test('refuses an unknown user', async () => {
    const { engine } = testEngine()
    const auction = await liveAuction(engine)
    expect(await engine.bid(auction.id, 'nobody')).toEqual({ ok: false, reason: 'user_not_found' })
  })

  test('accepts no bid after the deadline even when the sweeper is late', async () => {
    const { engine } = testEngine({ timerMs: 1_000 })
    // The people first: an auction without bids ends a timer after its start, and two inserts
    // into Postgres have taken longer than a short timer on a busy machine.
    const [a, b] = [await createUser(engine.prisma), await createUser(engine.prisma)]
    const auction = await liveAuction(engine)
    expect((await engine.bid(auction.id, a.id)).ok).toBe(true)
    // Until the deadline the engine gives has passed.
    const { deadline } = (await engine.getState(auction.id))!
    await sleep(deadline! - Date.now() + 50)
    // No sweep has run: the auction is still "live" in Redis, but its deadline has passed.
    expect((await engine.getState(auction.id))!.status).toBe('live')
    expect(await engine.bid(auction.id, b.id)).toEqual({ ok: false, reason: 'auction_ended' })
    expect(await engine.getBalance(b.id)).toBe(10)
    const swept = await engine.sweep()
    expect(swept.finished).toEqual([auction.id])
    expect(await engine.getState(auction.id)).toMatchObject({
      status: 'finished',
      lastBidder: a.id,
      price: 1,
    })
    expect(await engine.bid(auction.id, b.id)).toEqual({ ok: false, reason: 'auction_ended' })
  })
})

describe('finish', () => {
  test("a finished auction's keys stay for the finished TTL, whether swept or ended", async () => {
    const { engine, redis } = testEngine({ timerMs: 1_500, finishedTtlMs: 60_000 })
    const [swept, ended] = [await liveAuction(engine), await liveAuction(engine)]
    const [a, b] = [await createUser(engine.prisma), await createUser(engine.prisma)]
    const bot = { id: 'ttl-bot', name: 'Бот', limit: 0 }
    expect((await engine.bid(swept.id, a.id)).ok).toBe(true)
    expect((await engine.bid(ended.id, b.id)).ok).toBe(true)
    expect((await engine.botBid(swept.id, bot)).ok).toBe(true)
    expect((await engine.botBid(ended.id, bot)).ok).toBe(true)
    expect((await engine.endAuction(ended.id)).ok).toBe(true)
    await sleep(1_600)
    expect((await engine.sweep()).finished).toContain(swept.id)
    const k = engine.keys
    for (const id of [swept.id, ended.id]) {
      for (const key of [k.auction(id), k.recentBids(id), k.botCounts(id), k.bidders(id)]) {
        const ttl = await redis.pttl(key)
        expect(ttl, key).toBeGreaterThan(50_000)
        expect(ttl, key).toBeLessThanOrEqual(60_000)
      }
    }
  })

  test('an auction finishes 10 s after its last bid, not before', async () => {
    const { engine } = testEngine()
    const auction = await liveAuction(engine)
    const user = await createUser(engine.prisma)
    const bid = await engine.bid(auction.id, user.id)
    if (!bid.ok) throw new Error('bid refused')
    const finished: number[] = []
    engine.on('finished', ({ auctionIds }) => {
      if (auctionIds.includes(auction.id)) finished.push(Date.now())
    })
    // Sweep every 20 ms as the sweeper would.
    while (finished.length === 0) {
      const result = await engine.sweep()
      if (!result.finished.includes(auction.id)) {
        expect(result.now).toBeLessThan(bid.deadline)
        await sleep(20)
      } else {
        expect(result.now).toBeGreaterThanOrEqual(bid.deadline)
        expect(result.now - bid.deadline).toBeLessThan(150)
      }
    }
    const state = await engine.getState(auction.id)
    expect(state).toMatchObject({
      status: 'finished',
      lastBidder: user.id,
      price: 1,
      endedAt: bid.deadline,
    })
  }, 20_000)

  test('bids keep an auction alive past the deadlines the sweeper was first told of', async () => {
    const { engine } = testEngine({ timerMs: 1_500 })
    const auction = await liveAuction(engine)
    const users = [
      await createUser(engine.prisma),
      await createUser(engine.prisma),
      await createUser(engine.prisma),
    ]
    let last: Awaited<ReturnType<typeof engine.bid>> | undefined
    // Six bids 400 ms apart: past the first deadline (2.4 s against 1.5 s), each well within the
    // timer even when a busy machine makes a bid take a second.
    for (let i = 0; i < 6; i++) {
      await sleep(400)
      last = await engine.bid(auction.id, users[i % 3]!.id)
      expect(last.ok).toBe(true)
      expect((await engine.sweep()).finished).not.toContain(auction.id)
    }
    if (!last?.ok) throw new Error('bids refused')
    const { at, timers } = await engine.getTimers()
    expect(timers[auction.id]).toBe(Math.max(0, last.deadline - at))
    while (!(await engine.sweep()).finished.includes(auction.id)) await sleep(20)
    const state = await engine.getState(auction.id)
    expect(state).toMatchObject({ status: 'finished', endedAt: last.deadline, bids: 6 })
  }, 20_000)

  test('an auction nobody bids on finishes with no winner', async () => {
    const { engine, outbox, prisma } = testEngine({ timerMs: 200 })
    const auction = await liveAuction(engine)
    await sleep(250)
    expect((await engine.sweep()).finished).toEqual([auction.id])
    await outbox.drain()
    const row = await prisma.auction.findUniqueOrThrow({ where: { id: auction.id } })
    expect(row).toMatchObject({ status: 'finished', winnerId: null, totalBids: 0, finalPrice: 0 })
  })

  test('an admin ends a live auction: the last bidder wins at the current price', async () => {
    const { engine, outbox, prisma } = testEngine()
    const auction = await liveAuction(engine, 250)
    const user = await createUser(engine.prisma)
    await engine.bid(auction.id, user.id)
    expect(await engine.endAuction(auction.id)).toEqual({ ok: true })
    expect(await engine.endAuction(auction.id)).toEqual({ ok: false, reason: 'auction_not_live' })
    expect(await engine.endAuction('missing')).toEqual({ ok: false, reason: 'auction_not_found' })
    const other = await createUser(engine.prisma)
    expect(await engine.bid(auction.id, other.id)).toEqual({ ok: false, reason: 'auction_ended' })
    await outbox.drain()
    const row = await prisma.auction.findUniqueOrThrow({ where: { id: auction.id } })
    expect(row).toMatchObject({
      status: 'finished',
      winnerId: user.id,
      finalPrice: 251,
      totalBids: 1,
    })
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).wonAuctions).toBe(1)
  })
})

describe('prebid', () => {
  test('one per user on an upcoming auction, one bid each', async () => {
    const { engine } = testEngine()
    const auction = await upcomingAuction(engine)
    const user = await createUser(engine.prisma, 1)
    const result = await engine.prebid(auction.id, user.id)
    expect(result).toMatchObject({ ok: true, balance: 0, prebids: 1 })
    expect(await engine.prebid(auction.id, user.id)).toEqual({
      ok: false,
      reason: 'already_prebid',
    })
    const poor = await createUser(engine.prisma, 0)
    expect(await engine.prebid(auction.id, poor.id)).toEqual({
      ok: false,
      reason: 'insufficient_bids',
    })
    expect(await engine.hasPrebid(auction.id, user.id)).toBe(true)
    expect(await engine.hasPrebid(auction.id, poor.id)).toBe(false)
  })

  test('removing an upcoming auction takes its prebids along and keeps it from loading again', async () => {
    const { engine } = testEngine()
    const auction = await upcomingAuction(engine)
    const [a, b] = [await createUser(engine.prisma, 2), await createUser(engine.prisma, 2)]
    await engine.prebid(auction.id, a.id)
    const last = await engine.prebid(auction.id, b.id)
    const removed = await engine.removeAuction(auction.id, 'upcoming')
    // The newest outbox entry at that moment: the refunds wait until Postgres has it.
    expect(removed).toEqual({ ok: true, status: 'upcoming', through: last.ok && last.prebidId })
    expect(await engine.hasPrebid(auction.id, a.id)).toBe(false)
    // Gone from Redis: no more prebids, and not loaded again while it is being deleted.
    expect(await engine.prebid(auction.id, a.id)).toEqual({
      ok: false,
      reason: 'auction_not_found',
    })
    expect(await engine.loadAuction(auction.id)).toBe('skipped')
    expect(await engine.getState(auction.id)).toBeNull()
    expect(await engine.removeAuction(auction.id, 'upcoming')).toMatchObject({
      ok: true,
      status: '',
    })
  })

  test('an upcoming auction that started meanwhile is not removed: its prebids are bids now', async () => {
    const { engine } = testEngine()
    const auction = await upcomingAuction(engine)
    const user = await createUser(engine.prisma, 2)
    await engine.prebid(auction.id, user.id)
    // The admin saw it upcoming; then it starts.
    const seen = (await engine.getState(auction.id))!.status
    expect(seen).toBe('upcoming')
    await startNow(engine, auction.id)
    expect((await engine.getState(auction.id))?.status).toBe('live')
    expect(await engine.removeAuction(auction.id, 'upcoming')).toEqual({
      ok: false,
      status: 'live',
    })
    expect(await engine.getState(auction.id)).toMatchObject({
      status: 'live',
      lastBidder: user.id,
      bids: 1,
    })
    const finished = await liveAuction(engine)
    await engine.endAuction(finished.id)
    expect(await engine.removeAuction(finished.id, 'upcoming')).toEqual({
      ok: false,
      status: 'finished',
    })
    expect((await engine.removeAuction(finished.id, 'finished')).ok).toBe(true)
    expect(await engine.getState(finished.id)).toBeNull()
  })

  test('is refused once the auction is live', async () => {
    const { engine } = testEngine()
    const auction = await liveAuction(engine)
    const user = await createUser(engine.prisma)
    expect(await engine.prebid(auction.id, user.id)).toEqual({
      ok: false,
      reason: 'auction_not_upcoming',
    })
    expect(await engine.prebid('missing', user.id)).toEqual({
      ok: false,
      reason: 'auction_not_found',
    })
  })

  test('prebids become bids at the start, in the order they were placed', async () => {
    const { engine, outbox, prisma } = testEngine()
    const auction = await createAuction(engine.prisma, {
      startTime: new Date(Date.now() + 600),
      currentPrice: 10,
    })
    await engine.loadAuction(auction.id)
    const users = [await createUser(prisma), await createUser(prisma), await createUser(prisma)]
    for (const user of [users[2]!, users[0]!, users[1]!]) {
      expect((await engine.prebid(auction.id, user.id)).ok).toBe(true)
    }
    expect((await engine.sweep()).started).toEqual([])
    await sleep(700)
    expect((await engine.sweep()).started).toEqual([auction.id])
    const state = await engine.getState(auction.id)
    expect(state).toMatchObject({ status: 'live', price: 13, bids: 3, lastBidder: users[1]!.id })
    const recent = await engine.getRecentBids(auction.id)
    expect(recent.map((bid) => [bid.bidder, bid.price, bid.prebid])).toEqual([
      [users[1]!.id, 13, true],
      [users[0]!.id, 12, true],
      [users[2]!.id, 11, true],
    ])
    // The last prebidder leads: they cannot bid again at once; the others can.
    expect(await engine.bid(auction.id, users[1]!.id)).toEqual({
      ok: false,
      reason: 'already_leading',
    })
    expect((await engine.bid(auction.id, users[0]!.id)).ok).toBe(true)

    await outbox.drain()
    const bids = await prisma.bid.findMany({
      where: { auctionId: auction.id },
      orderBy: { amount: 'asc' },
    })
    expect(bids.map((bid) => [bid.userId, bid.amount, bid.isPrebid])).toEqual([
      [users[2]!.id, 11, true],
      [users[0]!.id, 12, true],
      [users[1]!.id, 13, true],
      [users[0]!.id, 14, false],
    ])
    const prebids = await prisma.prebid.findMany({ where: { auctionId: auction.id } })
    expect(prebids).toHaveLength(3)
    expect(prebids.every((prebid) => prebid.convertedAt !== null)).toBe(true)
    const row = await prisma.auction.findUniqueOrThrow({ where: { id: auction.id } })
    expect(row).toMatchObject({ status: 'live', currentPrice: 14, totalBids: 4, prebidsCount: 3 })
  })
})

describe('balances', () => {
  test('a credit replayed three times credits once, and the ledger agrees', async () => {
    const { engine, outbox, prisma } = testEngine()
    const user = await createUser(prisma, 5)
    const results = await Promise.all(
      [1, 2, 3].map(() => engine.credit(user.id, 50, 'topup', 'payment:tx-1')),
    )
    expect(results.filter((r) => r.ok && r.applied)).toHaveLength(1)
    expect(await engine.getBalance(user.id)).toBe(55)
    expect(await engine.credit(user.id, 50, 'topup', 'payment:tx-1')).toEqual({
      ok: true,
      applied: false,
      balance: 55,
    })
    await outbox.drain()
    const ledger = await prisma.balanceLedger.findMany({ where: { userId: user.id } })
    expect(ledger).toMatchObject([
      { amount: 50, balanceAfter: 55, reason: 'topup', reference: 'payment:tx-1' },
    ])
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).bidBalance).toBe(55)
  })

  test('an admin adjusts a balance as it is now; the ledger keeps the admin and the reason', async () => {
    const { engine, outbox, prisma } = testEngine()
    const user = await createUser(prisma, 7)
    const change = { reference: 'admin:1', adminId: 'admin-id', note: 'Компенсация' }
    // A top-up lands between the admin's read (7) and their save: both count.
    await engine.credit(user.id, 50, 'topup', 'payment:tx-2')
    expect(await engine.adjustBalance(user.id, { ...change, delta: -4 })).toEqual({
      ok: true,
      applied: true,
      balance: 53,
    })
    // The same reference again changes nothing.
    expect(await engine.adjustBalance(user.id, { ...change, delta: -4 })).toEqual({
      ok: true,
      applied: false,
      balance: 53,
    })
    await outbox.drain()
    expect(
      await prisma.balanceLedger.findMany({
        where: { userId: user.id, reason: 'admin_adjust' },
        select: { amount: true, balanceAfter: true, adminId: true, note: true, reference: true },
      }),
    ).toEqual([
      {
        amount: -4,
        balanceAfter: 53,
        adminId: 'admin-id',
        note: 'Компенсация',
        reference: 'admin:1',
      },
    ])
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).bidBalance).toBe(53)
  })

  test('an adjustment below 0, above the maximum or from a stale balance changes nothing', async () => {
    const { engine, outbox, prisma } = testEngine()
    const user = await createUser(prisma, 3)
    const change = { adminId: 'admin-id', note: 'Проверка' }
    expect(await engine.adjustBalance(user.id, { ...change, reference: 'a', delta: -4 })).toEqual({
      ok: false,
      reason: 'below_zero',
      balance: 3,
    })
    expect(
      await engine.adjustBalance(user.id, { ...change, reference: 'b', delta: ADMIN_BALANCE_MAX }),
    ).toEqual({ ok: false, reason: 'above_max', balance: 3 })
    expect(
      await engine.adjustBalance(user.id, { ...change, reference: 'c', delta: 2, expected: 5 }),
    ).toEqual({ ok: false, reason: 'stale', balance: 3 })
    // A refused reference is not spent: the same one applies once the change fits.
    expect(
      await engine.adjustBalance(user.id, { ...change, reference: 'a', delta: -3, expected: 3 }),
    ).toEqual({ ok: true, applied: true, balance: 0 })
    await outbox.drain()
    expect(
      await prisma.balanceLedger.findMany({ where: { userId: user.id }, select: { amount: true } }),
    ).toEqual([{ amount: -3 }])
  })

  test('bad amounts are refused before they reach Redis', async () => {
    const { engine, prisma } = testEngine()
    const user = await createUser(prisma)
    await expect(engine.credit(user.id, 0, 'topup', 'x')).rejects.toThrow(RangeError)
    await expect(engine.credit(user.id, 1.5, 'topup', 'x')).rejects.toThrow(RangeError)
    const change = { reference: 'x', adminId: 'admin-id', note: 'x' }
    for (const delta of [0, 1.5, ADMIN_BALANCE_MAX + 1, Number.MAX_SAFE_INTEGER * 2]) {
      await expect(engine.adjustBalance(user.id, { ...change, delta })).rejects.toThrow(RangeError)
    }
    await expect(engine.adjustBalance(user.id, { ...change, delta: 1, note: '' })).rejects.toThrow(
      RangeError,
    )
    expect(await engine.credit('nobody', 5, 'topup', 'y')).toEqual({
      ok: false,
      reason: 'user_not_found',
    })
  })

  test('once hot, Redis is the truth: a stale Postgres balance is not loaded over it', async () => {
    const { engine, prisma } = testEngine()
    const user = await createUser(prisma, 5)
    const auction = await liveAuction(engine)
    await engine.bid(auction.id, user.id)
    expect(await engine.loadUser(user.id)).toBe(true)
    expect(await engine.getBalance(user.id)).toBe(4)
  })
})

describe('removing a user', () => {
  test('balance, prebids and auto-bid budgets leave the engine at once; the account cannot come back', async () => {
    const { engine } = testEngine()
    const upcoming = await upcomingAuction(engine)
    const live = await liveAuction(engine, 100)
    const [gone, other] = [await createUser(engine.prisma, 10), await createUser(engine.prisma, 10)]
    expect((await engine.prebid(upcoming.id, other.id)).ok).toBe(true)
    expect((await engine.prebid(upcoming.id, gone.id)).ok).toBe(true)
    expect((await engine.setAutoBid(live.id, gone.id, 5)).ok).toBe(true)
    expect((await engine.getState(upcoming.id))?.prebids).toBe(2)

    const removed = await engine.removeUser(gone.id)
    expect([...removed.prebids]).toEqual([[upcoming.id, 1]])
    expect(removed.autoBids).toEqual([live.id])

    // Its Postgres row is still there (it goes right after): it must not bring the balance back.
    expect(await engine.getBalance(gone.id)).toBeNull()
    expect(await engine.bid(live.id, gone.id)).toEqual({ ok: false, reason: 'user_not_found' })
    expect(await engine.autoBid(live.id, gone.id)).toEqual({ ok: false, reason: 'user_not_found' })
    expect(await engine.prebid(upcoming.id, gone.id)).toEqual({
      ok: false,
      reason: 'user_not_found',
    })
    expect((await engine.credit(gone.id, 3, 'refund', `r:${gone.id}`)).ok).toBe(false)
    expect(await engine.getAutoBidBudgets(live.id)).toEqual(new Map())
    expect(await engine.hasPrebid(upcoming.id, gone.id)).toBe(false)
    expect((await engine.getState(upcoming.id))?.prebids).toBe(1)

    // At the start only the other prebid becomes a bid.
    await startNow(engine, upcoming.id)
    expect(await engine.getState(upcoming.id)).toMatchObject({
      status: 'live',
      price: 1,
      lastBidder: other.id,
      bids: 1,
      prebids: 1,
    })
    expect((await engine.getRecentBids(upcoming.id)).map((bid) => bid.bidder)).toEqual([other.id])
    // Nothing else was touched.
    expect(await engine.getBalance(other.id)).toBe(9)
  })
})

describe('auction view', () => {
  test('state, meta and the newest bids read together, as the separate reads give them', async () => {
    const { engine } = testEngine()
    const auction = await liveAuction(engine, 100)
    const [a, b] = [await createUser(engine.prisma, 5), await createUser(engine.prisma, 5)]
    const first = await engine.bid(auction.id, a.id)
    const second = await engine.bid(auction.id, b.id)
    expect(first.ok && second.ok).toBe(true)
    const view = await engine.getAuctionView(auction.id, 1)
    expect(view).not.toBeNull()
    expect(view!.state).toEqual(await engine.getState(auction.id))
    expect(view!.state).toMatchObject({ price: 102, bids: 2, lastBidderName: b.username })
    expect(view!.meta).toEqual(await engine.getMeta(auction.id))
    expect(view!.meta).toMatchObject({ title: auction.title, slug: auction.slug })
    expect(view!.bids).toEqual(await engine.getRecentBids(auction.id, 1))
    expect(view!.bids.map((bid) => bid.bidder)).toEqual([b.id])
    const now = await engine.now()
    expect(view!.at).toBeLessThanOrEqual(now)
    expect(view!.at).toBeGreaterThan(now - 5_000)
    expect((await engine.getAuctionView(auction.id, 10))!.bids).toHaveLength(2)
  })

  test('null for an auction Redis does not hold; no bids before the first', async () => {
    const { engine } = testEngine()
    expect(await engine.getAuctionView('no-such-auction', 10)).toBeNull()
    const auction = await liveAuction(engine)
    const view = await engine.getAuctionView(auction.id, 10)
    expect(view!.bids).toEqual([])
    expect(view!.state).toMatchObject({ status: 'live', bids: 0, lastBidder: null })
  })
})

describe('bid stats', () => {
  test('kept by the scripts, equal to the counts over the bids in Postgres, and after a reload', async () => {
    const { engine, outbox, prisma, redis } = testEngine()
    const auction = await upcomingAuction(engine, 1_500)
    const [a, b, c] = [
      await createUser(prisma, 5),
      await createUser(prisma, 5),
      await createUser(prisma, 5),
    ]
    expect((await engine.prebid(auction.id, a.id)).ok).toBe(true)
    expect(await engine.getBidStats(auction.id)).toBeNull()
    await sleep(1_600)
    await engine.sweep()
    const bot = await prisma.bot.create({
      data: { username: `bot_stats_${auction.id}`, firstName: 'Бот', lastName: 'Бот' },
    })
    const house = { id: bot.id, name: bot.username, limit: 0 }
    // a (prebid), b, bot, a, bot, c: 6 bids, 2 by the house, 4 bidders.
    for (const bid of [
      () => engine.bid(auction.id, b.id),
      () => engine.botBid(auction.id, house),
      () => engine.bid(auction.id, a.id),
      () => engine.botBid(auction.id, house),
      () => engine.bid(auction.id, c.id),
    ]) {
      expect((await bid()).ok).toBe(true)
    }
    const expected = { totalBids: 6, botBids: 2, userBids: 4, uniqueParticipants: 4 }
    expect(await engine.getBidStats(auction.id)).toEqual(expected)

    await outbox.drain()
    const [row] = await prisma.$queryRaw<
      Array<{ total: bigint; bot: bigint; participants: bigint }>
    >`SELECT count(*) AS total, count(*) FILTER (WHERE "isBot") AS bot,
             count(DISTINCT COALESCE("userId", 'bot:' || "botId")) AS participants
      FROM "Bid" WHERE "auctionId" = ${auction.id}`
    expect(row).toEqual({ total: 6n, bot: 2n, participants: 4n })

    // Redis lost the auction: loading it from Postgres brings the same counts back.
    await redis.del(engine.keys.auction(auction.id), engine.keys.bidders(auction.id))
    expect(await engine.getBidStats(auction.id)).toBeNull()
    await engine.loadAuction(auction.id)
    expect(await engine.getBidStats(auction.id)).toEqual(expected)

    expect((await engine.endAuction(auction.id)).ok).toBe(true)
    expect(await engine.getBidStats(auction.id)).toBeNull()
  })

  test("a bot's limit still counts its earlier bids after Redis lost the auction", async () => {
    const { engine, outbox, prisma, redis } = testEngine()
    const auction = await liveAuction(engine)
    const bot = await prisma.bot.create({
      data: { username: `bot_limit_${auction.id}`, firstName: 'Бот', lastName: 'Бот' },
    })
    const house = { id: bot.id, name: bot.username, limit: 2 }
    const [one, two] = [await createUser(prisma, 5), await createUser(prisma, 5)]
    expect((await engine.botBid(auction.id, house)).ok).toBe(true)
    expect((await engine.bid(auction.id, one.id)).ok).toBe(true)
    expect((await engine.botBid(auction.id, house)).ok).toBe(true)
    expect((await engine.bid(auction.id, two.id)).ok).toBe(true)
    expect(await engine.botBid(auction.id, house)).toEqual({
      ok: false,
      reason: 'bot_limit_reached',
    })
    await outbox.drain()

    // Everything Redis held of the auction is gone; Postgres brings it back.
    await redis.del(
      engine.keys.auction(auction.id),
      engine.keys.bidders(auction.id),
      engine.keys.botCounts(auction.id),
    )
    expect(await engine.loadAuction(auction.id)).toBe('live')
    expect(await engine.botBid(auction.id, house)).toEqual({
      ok: false,
      reason: 'bot_limit_reached',
    })
    // A higher limit lets it go on from the bids it made, not from zero.
    expect((await engine.botBid(auction.id, { ...house, limit: 3 })).ok).toBe(true)
    await sleep(1_000)
    expect((await engine.bid(auction.id, one.id)).ok).toBe(true)
    expect(await engine.botBid(auction.id, { ...house, limit: 3 })).toEqual({
      ok: false,
      reason: 'bot_limit_reached',
    })
  })
})

describe('scripts', () => {
  test('survive SCRIPT FLUSH (NOSCRIPT is handled)', async () => {
    const { engine, redis } = testEngine()
    const auction = await liveAuction(engine)
    await redis.script('FLUSH')
    const user = await createUser(engine.prisma)
    expect((await engine.bid(auction.id, user.id)).ok).toBe(true)
  })
})

describe('catalog counter', () => {
  test('moves when an auction is loaded and when its start and finish reach Postgres', async () => {
    const { engine, outbox } = testEngine()
    expect(await engine.catalogVersion()).toBe('0')
    const auction = await liveAuction(engine)
    const loaded = await engine.catalogVersion()
    expect(Number(loaded)).toBeGreaterThan(0)
    // The start is in Redis, not yet in Postgres: pages may keep the rows they read.
    await outbox.drain()
    const started = await engine.catalogVersion()
    expect(Number(started)).toBeGreaterThan(Number(loaded))
    // A bid changes nothing pages keep.
    const user = await createUser(engine.prisma)
    expect((await engine.bid(auction.id, user.id)).ok).toBe(true)
    await outbox.drain()
    expect(await engine.catalogVersion()).toBe(started)
    await engine.endAuction(auction.id)
    expect(await engine.catalogVersion()).toBe(started)
    await outbox.drain()
    expect(Number(await engine.catalogVersion())).toBeGreaterThan(Number(started))
  })
})
