import { expect, test } from 'vitest'
import { chain, entryOf, genesis, verify } from './audit-chain.ts'
import { createUser, startNow, testEngine, upcomingAuction } from './test-support.ts'

// Every accepted bid, whatever brought it, takes the next place in its auction's record in its
// own script, and Postgres keeps what the record needs (docs/fair-play.md).
test('prebids, bids, auto-bids and bots each get the next place, and the record is whole', async () => {
  const { engine, outbox, prisma } = testEngine()
  const auction = await upcomingAuction(engine)
  const [p1, p2, person, auto] = await Promise.all([1, 2, 3, 4].map(() => createUser(prisma, 10)))
  expect((await engine.prebid(auction.id, p1!.id)).ok).toBe(true)
  expect((await engine.prebid(auction.id, p2!.id)).ok).toBe(true)
  await startNow(engine, auction.id)
  expect((await engine.bid(auction.id, person!.id)).ok).toBe(true)
  expect((await engine.setAutoBid(auction.id, auto!.id, 2)).ok).toBe(true)
  expect((await engine.autoBid(auction.id, auto!.id)).ok).toBe(true)
  const bot = await prisma.bot.create({
    data: { username: `bot_record_${auction.id}`, firstName: 'Бот', lastName: 'Бот' },
  })
  expect((await engine.botBid(auction.id, { id: bot.id, name: bot.username, limit: 0 })).ok).toBe(
    true,
  )
  // While house bids are not disclosed, a bot's bid is recorded as anyone's.
  const quiet = { id: bot.id, name: bot.username, limit: 0, kind: 'bid' as const }
  expect((await engine.bid(auction.id, p1!.id)).ok).toBe(true)
  expect((await engine.botBid(auction.id, quiet)).ok).toBe(true)

  // The live recent bids carry their places too.
  const live = await engine.getAuctionView(auction.id, 10)
  expect(live?.bids.map((b) => [b.seq, b.kind])).toEqual([
    [7, 'bid'],
    [6, 'bid'],
    [5, 'bot'],
    [4, 'autobid'],
    [3, 'bid'],
    [2, 'prebid'],
    [1, 'prebid'],
  ])

  await outbox.drain()
  const [row, bids] = await Promise.all([
    prisma.auction.findUniqueOrThrow({ where: { id: auction.id } }),
    prisma.bid.findMany({ where: { auctionId: auction.id }, orderBy: { seq: 'asc' } }),
  ])
  const entries = bids.map((b) => entryOf({ ...b, seq: b.seq!, kind: b.kind! }))
  expect(entries.map((e) => [e.seq, e.kind, e.bidder, e.amount])).toEqual([
    [1, 'prebid', p1!.username, 0.01],
    [2, 'prebid', p2!.username, 0.02],
    [3, 'bid', person!.username, 0.03],
    [4, 'autobid', auto!.username, 0.04],
    [5, 'bot', bot.username, 0.05],
    [6, 'bid', p1!.username, 0.06],
    [7, 'bid', bot.username, 0.07],
  ])
  const startTime = row.startTime.toISOString()
  const chained = chain(genesis(auction.id, startTime), entries)
  expect(
    verify({ auctionId: auction.id, startTime, head: chained.at(-1)!.hash, bids: chained }),
  ).toMatchObject({ whole: true, bids: 7 })
})
