import { describe, expect, test } from 'vitest'
import { createUser, liveAuction, sleep, testEngine } from './test-support.ts'

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
