import { randomBytes } from 'node:crypto'
import { PrismaPg } from '@prisma/adapter-pg'
import { type Redis } from 'ioredis'
import { createRedis, Engine, PAYMENT_WINDOW_MS } from '../../engine/index.ts'
import { afterAll, inject } from 'vitest'
import { slugify } from '../../app/utils/slug.ts'
import { PrismaClient } from '../../prisma/generated/client.ts'
import { sleep, waitFor } from '../setup/stack.ts'
import { call } from './api.ts'
import { open } from './browser.ts'
import type { Page } from 'playwright-core'

// Auctions made for one test, on the server's own database and engine keys, with no bots
// assigned, so only the test's people bid on them.

let prisma: PrismaClient | undefined
let redis: Redis | undefined
let engine: Engine | undefined

function connect() {
  prisma ??= new PrismaClient({
    adapter: new PrismaPg({ connectionString: inject('e2eDatabaseUrl') }),
  })
  redis ??= createRedis(inject('e2eRedisUrl'))
  engine ??= new Engine({ redis, prisma, prefix: inject('e2eRedisPrefix') })
  return { prisma, engine }
}

/** The server's own database, for checking what a test left stored. */
export const e2eDatabase = () => connect().prisma

afterAll(async () => {
  await redis?.quit()
  await prisma?.$disconnect()
})

/** An auction loaded into the running engine; it starts by itself at `startsInMs`. */
export async function createAuction({
  title,
  startsInMs = 1500,
  retailPrice = 5_000_00,
  imageUrl = null,
}: {
  title: string
  startsInMs?: number
  retailPrice?: number
  imageUrl?: string | null
}) {
  const { prisma, engine } = connect()
  const displayId = `T${randomBytes(3).toString('hex').toUpperCase()}`
  const auction = await prisma.auction.create({
    data: {
      displayId,
      slug: slugify(title, displayId),
      title,
      description: 'Лот для проверки торгов.',
      retailPrice,
      imageUrl,
      startTime: new Date(Date.now() + startsInMs),
    },
    select: { id: true, slug: true, displayId: true, title: true },
  })
  await engine.loadAuction(auction.id)
  return auction
}

/**
 * Brings an upcoming auction's start to `inMs` from now, as an admin's edit of it does: a test
 * that needs its pages open when an auction starts (a live auction without bids ends 10 s after
 * its start) makes it far ahead, opens them, then starts it.
 */
export async function startSoon(auctionId: string, inMs = 500) {
  const { prisma, engine } = connect()
  await prisma.auction.update({
    where: { id: auctionId },
    data: { startTime: new Date(Date.now() + inMs) },
  })
  await engine.loadAuction(auctionId)
}

/**
 * A new auction's page opened while it is upcoming, then the auction started (startSoon): a page
 * that bids at once, whatever the machine's speed.
 */
export async function openStarting(page: Page, title: string) {
  const auction = await createAuction({ title, startsInMs: 60 * 60 * 1000 })
  await open(page, `/auction/${auction.slug}`)
  await startSoon(auction.id)
  return auction
}

/** Resolves once the engine has started `auctionId` (its start time passed and a sweep ran). */
export async function untilLive(auctionId: string, timeoutMs = 15_000) {
  const { engine } = connect()
  await waitFor(
    `auction ${auctionId} live`,
    async () => (await engine.getState(auctionId))?.status === 'live',
    timeoutMs,
    50,
  )
}

/** The auctions the home page shows now: every live and upcoming one, as the JSON API lists them. */
export async function shownAuctionIds(): Promise<string[]> {
  const { json } = await call('/api/auctions', { method: 'GET' })
  const groups = json as Record<string, Array<{ id: string }>>
  return [...(groups.live ?? []), ...(groups.upcoming ?? [])].map((auction) => auction.id)
}

/** Whether any of `auctionIds` has finished (or left the engine, as a finished one does). */
export async function anyFinished(auctionIds: string[]) {
  const { engine } = connect()
  const states = await Promise.all(auctionIds.map((id) => engine.getState(id)))
  return states.some((state) => !state || state.status === 'finished')
}

/**
 * Resolves once everything the engine has put into its outbox so far is written to Postgres:
 * what a test looks for there after an answer (a ledger row, a credit) is there by then, and
 * so would be a wrong extra one.
 */
export async function outboxWritten(timeoutMs = 15_000) {
  const { engine } = connect()
  const [last] = await redis!.xrevrange(engine.keys.outbox, '+', '-', 'COUNT', 1)
  if (!last) return
  await waitFor('the outbox written', () => engine.outboxWrittenThrough(last[0]), timeoutMs, 50)
}

/**
 * An auction `winnerId` won a minute ago at `finalPrice` (minor units), stored as the outbox
 * writes a finished one; its bids and its order are the caller's to add. Not in the engine.
 */
export async function createFinishedAuction({
  title,
  winnerId,
  finalPrice,
}: {
  title: string
  winnerId: string
  finalPrice: number
}) {
  const { prisma } = connect()
  const displayId = `T${randomBytes(3).toString('hex').toUpperCase()}`
  const endTime = new Date(Date.now() - 60_000)
  return prisma.auction.create({
    data: {
      displayId,
      slug: slugify(`${title} ${displayId}`, displayId),
      title: `${title} ${displayId}`,
      retailPrice: 5_000_00,
      startTime: new Date(endTime.getTime() - 60 * 60_000),
      status: 'finished',
      endTime,
      currentPrice: finalPrice,
      finalPrice,
      // Every bid adds 0,01 som to the price.
      totalBids: finalPrice,
      winnerId,
    },
    select: { id: true, slug: true, title: true, endTime: true },
  })
}

/** Brings a user's bid balance to `balance` through the engine (as an admin's adjustment would). */
export async function setBalance(userId: string, balance: number) {
  const { engine } = connect()
  const current = (await engine.getBalance(userId)) ?? 0
  if (balance === current) return
  const result = await engine.adjustBalance(userId, {
    delta: balance - current,
    expected: current,
    reference: `e2e:${userId}:${randomBytes(8).toString('hex')}`,
    adminId: 'e2e',
    note: 'Баланс для проверки',
  })
  if (!result.ok) throw new Error(`the balance could not be set: ${result.reason}`)
}

/**
 * A live auction that the seeded bots keep bidding on (no limit), so it stays live. Bots are
 * switched on here (the server rereads its bot settings within 2 s), whatever earlier test files
 * left in the settings.
 */
export async function createBotDrivenAuction(title: string) {
  const auction = await createAuction({ title, startsInMs: 300 })
  await assignBots(auction.id)
  return auction
}

/**
 * Two of the seeded bots bid on `auctionId` from now on (no limit), with bots switched on and
 * quick (1-4 s): the server rereads its bot settings and assignments within 2 s.
 */
export async function assignBots(auctionId: string) {
  const { prisma } = connect()
  const settings = { enabled: true, minDelay: 1, maxDelay: 4, activeBots: 2 }
  await prisma.botSettings.upsert({
    where: { id: 1 },
    create: { id: 1, ...settings },
    update: settings,
  })
  const bots = await prisma.bot.findMany({
    where: { isActive: true },
    take: 2,
    select: { id: true },
  })
  await prisma.botAssignment.createMany({
    data: bots.map((bot) => ({ botId: bot.id, auctionId, bidLimit: 0 })),
  })
}

/** An order awaiting payment for the item of `auctionId`, as a win gives one (48 h to pay). */
export async function createOrder(userId: string, auctionId: string, price = 1_50) {
  const { prisma } = connect()
  return prisma.order.create({
    data: {
      userId,
      auctionId,
      kind: 'win',
      price,
      expiresAt: new Date(Date.now() + PAYMENT_WINDOW_MS),
    },
    select: { id: true },
  })
}

/**
 * Keeps a live auction from ending while a test gets a page ready on a busy machine: two people
 * of the caller's (with bids enough) take turns to bid whenever less than `belowMs` is left on
 * its timer. The function it returns stops them.
 */
export function keepLive(
  auctionId: string,
  people: Array<{ id: string; cookie: string }>,
  belowMs = 5_000,
) {
  const { engine } = connect()
  let stopped = false
  const running = (async () => {
    while (!stopped) {
      const state = await engine.getState(auctionId)
      const next = people.find((person) => person.id !== state?.lastBidder)
      if (
        next &&
        state?.status === 'live' &&
        state.deadline &&
        state.deadline - Date.now() < belowMs
      ) {
        await call(`/api/auctions/${auctionId}/bid`, { cookie: next.cookie })
      }
      await sleep(200)
    }
  })()
  return async () => {
    stopped = true
    await running
  }
}

/** Brings the engine's copy of an auction up to date with its row, as an admin's save does. */
export async function reloadAuction(auctionId: string) {
  await connect().engine.loadAuction(auctionId)
}

/** Brings the engine's copy of a person up to date with their row, as loading them does. */
export async function reloadUser(userId: string) {
  await connect().engine.loadUser(userId)
}
