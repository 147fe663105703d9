import { describe, expect, test } from 'vitest'
import { Engine } from './engine.ts'
import { createEngineRuntime } from './index.ts'
import { Lease } from './lease.ts'
import { OutboxWorker } from './outbox/worker.ts'
import {
  createAuction,
  createUser,
  liveAuction,
  sleep,
  testEngine,
  testPrisma,
  testRedis,
  uniquePrefix,
  upcomingAuction,
} from './test-support.ts'

const databaseUrl = process.env.DATABASE_URL!

describe('outbox', () => {
  test('Postgres away while auctions finish: nothing is lost, the stream drains on return', async () => {
    const { engine, prisma } = testEngine({ timerMs: 2500 })
    // The same engine seen through a Postgres that refuses connections.
    const down = new Engine({
      redis: engine.redis,
      prisma: testPrisma('postgresql://postgres@127.0.0.1:1/none'),
      prefix: engine.keys.base.slice(1, -2),
    })
    const failing = new OutboxWorker(down, 'down', 'postgresql://postgres@127.0.0.1:1/none')
    failing.start()

    const users = [await createUser(prisma), await createUser(prisma)]
    const auctions = [await liveAuction(engine), await liveAuction(engine)]
    for (const auction of auctions) {
      expect((await engine.bid(auction.id, users[0]!.id)).ok).toBe(true)
      expect((await engine.bid(auction.id, users[1]!.id)).ok).toBe(true)
      await sleep(1010)
    }
    await engine.credit(users[0]!.id, 5, 'topup', 'outage-credit')
    await sleep(2600)
    expect((await engine.sweep()).finished.sort()).toEqual(auctions.map((a) => a.id).sort())
    await sleep(1000)
    await failing.stop()
    expect(failing.applied).toBe(0)
    expect(await new OutboxWorker(engine, 'probe', databaseUrl).lag()).toBeGreaterThanOrEqual(7)
    expect(
      await prisma.bid.count({ where: { auctionId: { in: auctions.map((a) => a.id) } } }),
    ).toBe(0)

    // Postgres is back: a worker (here another consumer) takes over what was left pending.
    const worker = new OutboxWorker(engine, 'down', databaseUrl)
    await worker.drain()
    for (const auction of auctions) {
      const row = await prisma.auction.findUniqueOrThrow({ where: { id: auction.id } })
      expect(row).toMatchObject({
        status: 'finished',
        winnerId: users[1]!.id,
        finalPrice: 2,
        totalBids: 2,
      })
    }
    expect((await prisma.user.findUniqueOrThrow({ where: { id: users[0]!.id } })).bidBalance).toBe(
      13,
    )
    expect(await worker.lag()).toBe(0)
  }, 30_000)

  test('a batch written twice is applied once', async () => {
    const { engine, outbox, prisma } = testEngine()
    const auction = await liveAuction(engine)
    const user = await createUser(prisma)
    await engine.bid(auction.id, user.id)
    const entries = (await engine.redis.xrange(engine.keys.outbox, '-', '+')).map(([id, flat]) => {
      const fields: Record<string, string> = {}
      for (let i = 0; i < flat.length; i += 2) fields[flat[i]!] = flat[i + 1]!
      return { id, fields }
    })
    await outbox.apply(entries)
    await outbox.apply(entries)
    expect(await prisma.bid.count({ where: { auctionId: auction.id } })).toBe(1)
    const row = await prisma.user.findUniqueOrThrow({ where: { id: user.id } })
    expect(row).toMatchObject({ bidBalance: 9, totalBids: 1, totalSpent: 1 })
  })

  test('an entry whose auction was deleted is dropped without blocking the rest', async () => {
    const { engine, outbox, prisma } = testEngine()
    const [gone, kept] = [await liveAuction(engine), await liveAuction(engine)]
    const user = await createUser(prisma)
    await engine.bid(gone.id, user.id)
    await sleep(1010)
    await engine.bid(kept.id, user.id)
    await prisma.auction.delete({ where: { id: gone.id } })
    await outbox.drain()
    expect(await prisma.bid.count({ where: { auctionId: kept.id } })).toBe(1)
    expect(await outbox.lag()).toBe(0)
  })

  test('an account deleted while its bids and win wait: they stay without a name', async () => {
    const { engine, outbox, prisma } = testEngine()
    const auction = await liveAuction(engine, 100)
    const [other, gone] = [await createUser(prisma, 5), await createUser(prisma, 5)]
    expect((await engine.bid(auction.id, other.id)).ok).toBe(true)
    expect((await engine.bid(auction.id, gone.id)).ok).toBe(true)
    expect((await engine.endAuction(auction.id)).ok).toBe(true)
    await prisma.user.delete({ where: { id: gone.id } })
    await outbox.drain()
    expect(await outbox.lag()).toBe(0)
    const row = await prisma.auction.findUniqueOrThrow({ where: { id: auction.id } })
    expect(row).toMatchObject({ status: 'finished', winnerId: null, finalPrice: 102, totalBids: 2 })
    const bids = await prisma.bid.findMany({
      where: { auctionId: auction.id },
      orderBy: { amount: 'asc' },
    })
    expect(bids.map((bid) => [bid.amount, bid.userId])).toEqual([
      [101, other.id],
      [102, null],
    ])
    expect(await prisma.user.findUniqueOrThrow({ where: { id: other.id } })).toMatchObject({
      bidBalance: 4,
      totalBids: 1,
    })
    const ledger = await prisma.balanceLedger.findMany({
      where: { reference: { in: bids.map((bid) => `bid:${bid.eventId}`) } },
    })
    expect(ledger.map((row) => row.userId).sort()).toEqual([other.id, null].sort())
  })
})

test('an account deleted while its prebid waits: the prebid is neither written nor counted', async () => {
  const { engine, outbox, prisma } = testEngine()
  const auction = await upcomingAuction(engine)
  const [other, gone] = [await createUser(prisma, 5), await createUser(prisma, 5)]
  expect((await engine.prebid(auction.id, other.id)).ok).toBe(true)
  expect((await engine.prebid(auction.id, gone.id)).ok).toBe(true)
  await prisma.user.delete({ where: { id: gone.id } })
  await outbox.drain()
  expect(await outbox.lag()).toBe(0)
  const row = await prisma.auction.findUniqueOrThrow({ where: { id: auction.id } })
  expect(row.prebidsCount).toBe(1)
  const prebids = await prisma.prebid.findMany({ where: { auctionId: auction.id } })
  expect(prebids.map((prebid) => prebid.userId)).toEqual([other.id])
})

describe('lease', () => {
  test('only one instance leads; another takes over within 2 s when the leader dies', async () => {
    const redis = testRedis()
    const prisma = testPrisma()
    const prefix = uniquePrefix()
    const a = createEngineRuntime({ redis, prisma, prefix, databaseUrl })
    const b = createEngineRuntime({ redis, prisma, prefix, databaseUrl })
    await a.start()
    await sleep(200)
    await b.start()
    await sleep(600)
    expect(a.lease.isLeader).toBe(true)
    expect(b.lease.isLeader).toBe(false)
    expect(await Lease.holderOf(a.engine)).toBe(a.lease.holder)

    // The leader dies without a word (no release): its renewals just stop.
    const crashed = Date.now()
    ;(a.lease as unknown as { timer: NodeJS.Timeout }).timer.unref()
    clearInterval((a.lease as unknown as { timer: NodeJS.Timeout }).timer)
    while (!b.lease.isLeader) {
      expect(Date.now() - crashed).toBeLessThan(2000)
      await sleep(50)
    }
    expect(await Lease.holderOf(b.engine)).toBe(b.lease.holder)

    // The new leader's sweeper starts auctions.
    const auction = await createAuction(prisma)
    await b.engine.loadAuction(auction.id)
    await sleep(300)
    expect((await b.engine.getState(auction.id))?.status).toBe('live')
    await b.stop()
    await a.outbox.stop()
  }, 20_000)

  test('a clean stop hands the lease over at once', async () => {
    const redis = testRedis()
    const prisma = testPrisma()
    const prefix = uniquePrefix()
    const a = createEngineRuntime({ redis, prisma, prefix, databaseUrl })
    await a.start()
    await sleep(100)
    expect(a.lease.isLeader).toBe(true)
    await a.stop()
    expect(await Lease.holderOf(a.engine)).toBeNull()
  })
})

describe('bots', () => {
  test('assigned bots bid within their delays, never outbid themselves and stop at their limit', async () => {
    const { engine, outbox, prisma } = testEngine()
    await prisma.botSettings.upsert({
      where: { id: 1 },
      create: { enabled: true, minDelay: 1, maxDelay: 1, activeBots: 2 },
      update: { enabled: true, minDelay: 1, maxDelay: 1, activeBots: 2 },
    })
    const auction = await liveAuction(engine)
    const bots = await Promise.all(
      ['a', 'b'].map((n) =>
        prisma.bot.create({
          data: { username: `bot_${n}_${auction.id}`, firstName: n, lastName: n },
        }),
      ),
    )
    await prisma.botAssignment.createMany({
      data: [
        { botId: bots[0]!.id, auctionId: auction.id, bidLimit: 2 },
        { botId: bots[1]!.id, auctionId: auction.id, bidLimit: 2 },
      ],
    })
    const { BotWorker } = await import('./bots.ts')
    const worker = new BotWorker(engine)
    const deadline = Date.now() + 8000
    while (Date.now() < deadline) {
      await worker.tick()
      await sleep(100)
    }
    const recent = await engine.getRecentBids(auction.id)
    // They alternate (a bot never outbids itself) until both have spent their 2 bids.
    expect(recent.length).toBe(4)
    expect(recent.every((bid) => bid.bot)).toBe(true)
    for (let i = 1; i < recent.length; i++)
      expect(recent[i]!.bidder).not.toBe(recent[i - 1]!.bidder)
    const gaps = recent.map((bid) => bid.at).reverse()
    for (let i = 1; i < gaps.length; i++) {
      expect(gaps[i]! - gaps[i - 1]!).toBeGreaterThanOrEqual(1000)
      expect(gaps[i]! - gaps[i - 1]!).toBeLessThan(1500)
    }
    await outbox.drain()
    const assignments = await prisma.botAssignment.findMany({ where: { auctionId: auction.id } })
    expect(Object.fromEntries(assignments.map((a) => [a.botId, a.currentBids]))).toEqual({
      [bots[0]!.id]: 2,
      [bots[1]!.id]: 2,
    })
    const bids = await prisma.bid.findMany({ where: { auctionId: auction.id } })
    expect(
      bids.every((bid) => bid.isBot && bid.userId === null && bid.botName?.startsWith('bot_')),
    ).toBe(true)
  }, 20_000)
})
