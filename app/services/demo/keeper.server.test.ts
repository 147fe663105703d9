import { beforeEach, expect, test, vi } from 'vitest'
import { BotWorker, type Engine } from '../../../engine/index.ts'
import { createAuction, testEngine } from '../../../engine/test-support.ts'
import type { PrismaClient } from '~/utils/db.server.ts'
import { DEFAULT_DEMO_KEEPER_OPTIONS, runKeeperPass, startDemoKeeper } from './keeper.server.ts'

// The demo keeper against real Redis and Postgres (docs/decisions/048-demo-keeper.md).

const DAY = 24 * 60 * 60_000
/** The defaults, with "now" a second ahead instead of five: the test waits less. */
const options = { ...DEFAULT_DEMO_KEEPER_OPTIONS, startLeadMs: 1_000 }

/** Sweeps (as the sweeper does) until at least `n` auctions are live; their ids. */
async function startedBy(engine: Engine, prisma: PrismaClient, n: number) {
  let live: string[] = []
  await vi.waitFor(
    async () => {
      await engine.sweep()
      live = await liveIds(engine, prisma)
      expect(live.length).toBeGreaterThanOrEqual(n)
    },
    { timeout: 5_000, interval: 100 },
  )
  return live
}

// The keeper looks at the whole catalog: each test starts from an empty one (this file's own
// database).
beforeEach(async () => {
  const { prisma } = testEngine()
  await prisma.auction.deleteMany()
  await prisma.bot.deleteMany()
})

async function houseBots(prisma: PrismaClient, n: number) {
  await prisma.botSettings.upsert({
    where: { id: 1 },
    create: { id: 1, enabled: true, minDelay: 1, maxDelay: 1, activeBots: 2 },
    update: { enabled: true, minDelay: 1, maxDelay: 1, activeBots: 2 },
  })
  for (let i = 0; i < n; i++)
    await prisma.bot.create({
      data: {
        username: `house_${Date.now().toString(36)}_${i}`,
        firstName: 'Дом',
        lastName: `${i}`,
      },
    })
}

/** A lot that finished `ago` ms ago, with a product worth listing again. */
async function finishedLot(prisma: PrismaClient, title: string, ago: number) {
  const lot = await createAuction(prisma, { title, startTime: new Date(Date.now() - ago - 60_000) })
  return prisma.auction.update({
    where: { id: lot.id },
    data: {
      status: 'finished',
      endTime: new Date(Date.now() - ago),
      description: `Описание: ${title}`,
      imageUrl: `/images/${lot.id}.webp`,
      retailPrice: 2_490_000,
      category: 'Аудио',
    },
  })
}

async function liveIds(engine: Engine, prisma: PrismaClient) {
  const open = await prisma.auction.findMany({
    where: { status: { in: ['upcoming', 'live'] } },
    select: { id: true },
  })
  const states = await engine.getStates(open.map((a) => a.id))
  return states.filter((s) => s?.status === 'live').map((s) => s!.id)
}

test('a demo database left for days comes back to life after one keeper pass, and the bots bid', async () => {
  const { engine, prisma } = testEngine()
  await houseBots(prisma, 3)
  const lots = [
    await finishedLot(prisma, 'Наушники AirPods Pro 2', 3 * DAY),
    await finishedLot(prisma, 'Колонка JBL Flip 6', 4 * DAY),
    await finishedLot(prisma, 'iPad 10.9', 5 * DAY),
    await finishedLot(prisma, 'Switch OLED', 6 * DAY),
    await finishedLot(prisma, 'Робот-пылесос', 7 * DAY),
  ]
  // Upcoming and live when the demo stopped, days ago: started and ended since.
  const stale = await createAuction(prisma, { startTime: new Date(Date.now() - 2 * DAY) })
  // The server's start: what Postgres holds goes to Redis and the sweeper starts what is due.
  await engine.loadAllAuctions()
  await engine.sweep()

  const result = await runKeeperPass(engine, options)
  const live = await startedBy(engine, prisma, options.minLive)
  expect(result.relisted).toBeGreaterThanOrEqual(3)
  // Listed again: a new lot (number, link) of the same product.
  const copies = await prisma.auction.findMany({
    where: { id: { in: live.filter((id) => id !== stale.id) } },
  })
  expect(copies.length).toBeGreaterThanOrEqual(2)
  for (const copy of copies) {
    const from = lots.find((lot) => lot.title === copy.title)!
    expect(copy).toMatchObject({
      description: from.description,
      imageUrl: from.imageUrl,
      retailPrice: from.retailPrice,
      category: from.category,
    })
    expect(copy.displayId).not.toBe(from.displayId)
    expect(copy.slug).not.toBe(from.slug)
  }
  expect(new Set(copies.map((c) => c.title)).size).toBe(copies.length)
  // One starts within minutes, in Redis as in Postgres.
  const now = await engine.now()
  const upcoming = await prisma.auction.findMany({ where: { status: 'upcoming' } })
  const soon = upcoming.filter(
    (a) => a.startTime.getTime() > now && a.startTime.getTime() <= now + 5 * 60_000,
  )
  expect(soon.length).toBeGreaterThanOrEqual(1)
  expect((await engine.getState(soon[0]!.id))?.startTime).toBe(soon[0]!.startTime.getTime())
  // Every running lot has house bots with bid limits.
  for (const id of [...live, soon[0]!.id]) {
    const assignments = await prisma.botAssignment.findMany({ where: { auctionId: id } })
    expect(assignments).toHaveLength(DEFAULT_DEMO_KEEPER_OPTIONS.botsPerAuction)
    for (const a of assignments) expect(a.bidLimit).toBeGreaterThan(0)
  }
  // The bot worker answers on them.
  const bots = new BotWorker(engine)
  await vi.waitFor(
    async () => {
      await bots.tick()
      const states = await engine.getStates(live)
      expect(states.every((s) => s!.bids > 0 && s!.lastBidderIsBot)).toBe(true)
    },
    { timeout: 8_000, interval: 200 },
  )
})

test('below the floor the next upcoming auction is brought forward, Redis and Postgres alike', async () => {
  const { engine, prisma } = testEngine()
  await houseBots(prisma, 2)
  const next = await createAuction(prisma, { startTime: new Date(Date.now() + 2 * DAY) })
  const later = await createAuction(prisma, { startTime: new Date(Date.now() + 3 * DAY) })
  await engine.loadAllAuctions()

  await runKeeperPass(engine, { ...options, minLive: 1, minUpcoming: 0 })

  expect(await startedBy(engine, prisma, 1)).toEqual([next.id])
  const row = await prisma.auction.findUniqueOrThrow({ where: { id: next.id } })
  expect(row.startTime.getTime()).toBeLessThanOrEqual(Date.now())
  expect((await engine.getState(next.id))?.startTime).toBe(row.startTime.getTime())
  // The next one takes the "starting soon" place; no lot was invented.
  const soon = await prisma.auction.findUniqueOrThrow({ where: { id: later.id } })
  expect(soon.startTime.getTime() - Date.now()).toBeLessThan(5 * 60_000)
  expect(await prisma.auction.count()).toBe(2)
})

test('without the switch nothing is started; with it the lease holder keeps the demo', async () => {
  const { engine, prisma } = testEngine()
  await houseBots(prisma, 2)
  await finishedLot(prisma, 'Фен Dyson', DAY)
  const listeners = engine.listenerCount('leader')
  expect(startDemoKeeper(engine, { DEMO_MODE: false })).toBeNull()
  expect(engine.listenerCount('leader')).toBe(listeners)
  engine.emit('leader', { leader: true })
  expect(await prisma.auction.count()).toBe(1)

  const keeper = startDemoKeeper(engine, { DEMO_MODE: true }, { minUpcoming: 0 })!
  try {
    engine.emit('leader', { leader: true })
    await vi.waitFor(async () => expect(await prisma.auction.count()).toBe(2), { timeout: 8_000 })
  } finally {
    keeper.stop()
  }
})
