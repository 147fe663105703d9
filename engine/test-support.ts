// Helpers for the engine's own tests: real Redis and Postgres (tests/setup gives each test
// file its own database and key prefix; each engine here gets a prefix of its own inside it).
import { randomBytes } from 'node:crypto'
import { PrismaPg } from '@prisma/adapter-pg'
import { type Redis } from 'ioredis'
import { createRedis } from './redis.ts'
import { afterAll } from 'vitest'
import { PrismaClient } from '../prisma/generated/client.ts'
import { Engine, type EngineOptions } from './engine.ts'
import { OutboxWorker } from './outbox/worker.ts'

const redisClients: Redis[] = []
const prismaClients: PrismaClient[] = []

afterAll(async () => {
  for (const redis of redisClients) {
    let cursor = '0'
    do {
      const [next, keys] = await redis.scan(
        cursor,
        'MATCH',
        `{${process.env.REDIS_PREFIX}*`,
        'COUNT',
        500,
      )
      cursor = next
      if (keys.length) await redis.unlink(...keys)
    } while (cursor !== '0')
  }
  await Promise.all(redisClients.map((redis) => redis.quit().catch(() => {})))
  await Promise.all(prismaClients.map((prisma) => prisma.$disconnect()))
})

export function testRedis(): Redis {
  const redis = createRedis(process.env.REDIS_URL!, { maxRetriesPerRequest: 2 })
  redisClients.push(redis)
  return redis
}

export function testPrisma(url = process.env.DATABASE_URL!): PrismaClient {
  const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: url }) })
  prismaClients.push(prisma)
  return prisma
}

export function uniquePrefix() {
  return `${process.env.REDIS_PREFIX}-${randomBytes(3).toString('hex')}`
}

let sharedRedis: Redis | undefined
let sharedPrisma: PrismaClient | undefined

export function testEngine(options: Partial<EngineOptions> = {}) {
  sharedRedis ??= testRedis()
  sharedPrisma ??= testPrisma()
  const engine = new Engine({
    redis: sharedRedis,
    prisma: sharedPrisma,
    prefix: uniquePrefix(),
    ...options,
  })
  const outbox = new OutboxWorker(engine, 'test', process.env.DATABASE_URL!)
  return { engine, outbox, prisma: engine.prisma, redis: engine.redis }
}

let counter = 0
const tag = () =>
  `${Date.now().toString(36)}${(counter++).toString(36)}${randomBytes(2).toString('hex')}`

export async function createUser(prisma: PrismaClient, bidBalance = 10) {
  const name = `u${tag()}`
  return prisma.user.create({
    data: { username: name, email: `${name}@example.com`, bidBalance },
  })
}

export async function createAuction(
  prisma: PrismaClient,
  data: { startTime?: Date; currentPrice?: number; title?: string } = {},
) {
  const id = tag()
  return prisma.auction.create({
    data: {
      displayId: `T-${id}`,
      slug: `test-${id}`,
      title: data.title ?? `Test auction ${id}`,
      retailPrice: 100_000,
      currentPrice: data.currentPrice ?? 0,
      startTime: data.startTime ?? new Date(Date.now() - 1000),
    },
  })
}

/** An auction that is live in Redis right now (created past its start, then swept). */
export async function liveAuction(engine: Engine, price = 0) {
  const auction = await createAuction(engine.prisma, { currentPrice: price })
  await engine.loadAuction(auction.id)
  await engine.sweep()
  // A sweep for another auction created at the same moment may have started this one.
  if ((await engine.getState(auction.id))?.status !== 'live')
    throw new Error('auction did not start')
  return auction
}

/** An auction loaded into Redis as upcoming, starting in `startsInMs` (an hour by default). */
export async function upcomingAuction(engine: Engine, startsInMs = 3_600_000) {
  const auction = await createAuction(engine.prisma, {
    startTime: new Date(Date.now() + startsInMs),
  })
  await engine.loadAuction(auction.id)
  return auction
}

/** An upcoming auction started now: its start moved into the past, loaded again and swept. */
export async function startNow(engine: Engine, auctionId: string) {
  await engine.prisma.auction.update({
    where: { id: auctionId },
    data: { startTime: new Date(Date.now() - 1000) },
  })
  await engine.loadAuction(auctionId)
  await engine.sweep()
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Resolves once `check` holds; fails after `timeoutMs`. */
export async function waitFor(check: () => Promise<boolean>, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out')
    await sleep(50)
  }
}
