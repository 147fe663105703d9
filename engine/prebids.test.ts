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
