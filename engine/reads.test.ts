import { describe, expect, test } from 'vitest'
import { createUser, liveAuction, sleep, testEngine, upcomingAuction } from './test-support.ts'

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
