import { expect, test } from 'vitest'
import type { Engine } from './engine.ts'
import { prebidRefundReference } from './holds.ts'
import { createUser, liveAuction, startNow, testEngine, upcomingAuction } from './test-support.ts'
import { removeKeys } from '../tests/setup/redis-keys.ts'

// Redis lost (docs/operations.md "Recover from the loss of Redis"): what people paid for on
// auctions that have not finished comes back from Postgres when the auctions are loaded
// (docs/decisions/040-holds-rebuilt-from-postgres.md).

/** Every key of this engine gone, as after Redis came back empty. */
async function loseRedis(engine: Engine) {
  await removeKeys(engine.redis, engine.keys.base)
}

const prebidders = (engine: Engine, auctionId: string) =>
  engine.redis.zrange(engine.keys.prebids(auctionId), 0, -1)

test('an auction Redis lost comes back with its prebids in order and its auto-bid budgets', async () => {
  const { engine, outbox, prisma } = testEngine()
  const upcoming = await upcomingAuction(engine)
  const live = await liveAuction(engine)
  const [a, b, c] = [
    await createUser(prisma, 6),
    await createUser(prisma, 6),
    await createUser(prisma, 6),
  ]
  for (const user of [b, a, c]) expect((await engine.prebid(upcoming.id, user.id)).ok).toBe(true)
  expect((await engine.setAutoBid(upcoming.id, a.id, 3)).ok).toBe(true)
  expect((await engine.setAutoBid(live.id, b.id, 2)).ok).toBe(true)
  expect((await engine.setAutoBid(live.id, c.id, 2)).ok).toBe(true)
  expect((await engine.autoBid(live.id, b.id)).ok).toBe(true)
  await outbox.drain()

  await loseRedis(engine)
  expect(await engine.loadAllAuctions()).toBeGreaterThanOrEqual(2)
  // Twice, as two instances starting at once would: nothing doubles.
  await engine.loadAllAuctions()

  expect(await prebidders(engine, upcoming.id)).toEqual([b.id, a.id, c.id])
  expect(await engine.getState(upcoming.id)).toMatchObject({ status: 'upcoming', prebids: 3 })
  expect(await engine.getAutoBid(upcoming.id, a.id)).toEqual({ left: 3, placed: 0 })
  expect(await engine.getAutoBid(live.id, b.id)).toEqual({ left: 1, placed: 1 })
  expect(await engine.getAutoBid(live.id, c.id)).toEqual({ left: 2, placed: 0 })
  expect((await engine.getAutoBidAuctions()).sort()).toEqual([upcoming.id, live.id].sort())
  // The balances come from Postgres, which already took the prebids and budgets.
  expect(await engine.getBalance(a.id)).toBe(2)

  // A prebid placed after the reload goes after the others; the start turns all into bids.
  const d = await createUser(prisma, 1)
  expect(await engine.prebid(upcoming.id, d.id)).toMatchObject({ ok: true, prebids: 4 })
  await startNow(engine, upcoming.id)
  expect(await engine.getState(upcoming.id)).toMatchObject({
    status: 'live',
    bids: 4,
    lastBidder: d.id,
  })
  await outbox.drain()
  const bids = await prisma.bid.findMany({
    where: { auctionId: upcoming.id, isPrebid: true },
    orderBy: { amount: 'asc' },
  })
  expect(bids.map((bid) => bid.userId)).toEqual([b.id, a.id, c.id, d.id])
  expect(await prisma.prebid.count({ where: { auctionId: upcoming.id, convertedAt: null } })).toBe(
    0,
  )
})

test('a reload never adds to what Redis holds, nor brings back a refunded prebid', async () => {
  const { engine, outbox, prisma } = testEngine()
  const auction = await upcomingAuction(engine)
  const [a, b, c] = [
    await createUser(prisma, 3),
    await createUser(prisma, 3),
    await createUser(prisma, 3),
  ]
  await engine.prebid(auction.id, a.id)
  await engine.setAutoBid(auction.id, a.id, 2)
  await outbox.drain()
  // Rows Redis does not hold while it holds the auction (an edit reloads it): left alone.
  await prisma.prebid.create({ data: { auctionId: auction.id, userId: b.id } })
  await engine.loadAuction(auction.id)
  expect(await prebidders(engine, auction.id)).toEqual([a.id])
  expect(await engine.getState(auction.id)).toMatchObject({ prebids: 1 })

  // A prebid refunded (its ledger row is written) stays refunded after a loss.
  const refunded = await prisma.prebid.findFirstOrThrow({
    where: { auctionId: auction.id, userId: b.id },
  })
  await prisma.balanceLedger.create({
    data: {
      userId: b.id,
      amount: 1,
      balanceAfter: 4,
      reason: 'refund',
      reference: prebidRefundReference(refunded.id),
      auctionId: auction.id,
    },
  })
  await prisma.prebid.create({ data: { auctionId: auction.id, userId: c.id } })
  await loseRedis(engine)
  // A budget that is already back in Redis (written before the load) keeps its value.
  await engine.redis.hset(engine.keys.autoBids(auction.id), `r:${a.id}`, 1)
  await engine.loadAuction(auction.id)
  expect(await prebidders(engine, auction.id)).toEqual([a.id, c.id])
  expect(await engine.getState(auction.id)).toMatchObject({ prebids: 2 })
  expect(await engine.getAutoBid(auction.id, a.id)).toEqual({ left: 1, placed: 0 })
})
