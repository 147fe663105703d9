import type { PrismaClient } from '../prisma/generated/client.ts'
import { readBudgetHolds, readPrebidHolds, type BudgetHold } from './holds.ts'
import { bishkekDay, bishkekDayStart, DAY_MS, type Limits } from './limits.ts'
import type { AuctionMeta, AuctionStatus } from './types.ts'

const WEEK_MS = 7 * DAY_MS

// What the engine puts into Redis when Redis lacks it, read from Postgres: a user's balance and
// name on first use, an auction after it is created or edited, every unfinished auction at
// start-up. engine.ts puts it into Redis with the load scripts (engine/lua/), which keep what Redis
// already holds; an auction Redis lost gets its prebids and auto-bid budgets back (holds.ts).

/**
 * A user as the engine keeps them: the bid balance and the name bid lists show, and what the
 * fair-play rules and their own limits need (engine/lua/shared/rules.lua): whether they have won,
 * their verified phone, their limits, today's bids and prebids, the wins of 7 days (theirs and
 * their phone's, as [auction id, ended at]).
 */
export type UserLoad = {
  balance: number
  name: string
  won: boolean
  phone: string | null
  limits: Limits
  day: number
  dayCount: number
  wins: Array<[string, number]>
  phoneWins: Array<[string, number]>
}

export async function readUser(
  prisma: PrismaClient,
  userId: string,
  now = Date.now(),
): Promise<UserLoad | null> {
  const user = await prisma.user.findUnique({
    where: { id: userId },
    select: {
      bidBalance: true,
      username: true,
      verifiedPhone: true,
      wonAuctions: true,
      ...limitFields,
    },
  })
  if (!user) return null
  const dayStart = new Date(bishkekDayStart(now))
  const weekAgo = new Date(now - WEEK_MS)
  const phone = user.verifiedPhone
  const [bids, prebids, won, wins, phoneWins] = await Promise.all([
    prisma.bid.count({ where: { userId, isPrebid: false, createdAt: { gte: dayStart } } }),
    prisma.prebid.count({ where: { userId, createdAt: { gte: dayStart } } }),
    user.wonAuctions > 0 ? 1 : prisma.auction.count({ where: { winnerId: userId }, take: 1 }),
    readWins(prisma, { winnerId: userId }, weekAgo),
    phone ? readWins(prisma, { winner: { verifiedPhone: phone } }, weekAgo) : [],
  ])
  return {
    balance: user.bidBalance,
    name: user.username,
    won: won > 0,
    phone,
    limits: limitsOf(user),
    day: bishkekDay(now),
    dayCount: bids + prebids,
    wins,
    phoneWins,
  }
}

async function readWins(
  prisma: PrismaClient,
  winner: { winnerId: string } | { winner: { verifiedPhone: string } },
  since: Date,
): Promise<Array<[string, number]>> {
  const rows = await prisma.auction.findMany({
    where: { ...winner, status: 'finished', endTime: { gte: since } },
    select: { id: true, endTime: true },
  })
  return rows.map((row) => [row.id, row.endTime!.getTime()])
}

/** The columns of a person's limits (prisma/schema/users.prisma). */
export const limitFields = {
  dailyBidLimit: true,
  selfExcludedUntil: true,
  pendingDailyBidLimit: true,
  pendingSelfExcludedUntil: true,
  limitsPendingAt: true,
  limitsVersion: true,
} as const

type LimitColumns = {
  dailyBidLimit: number | null
  selfExcludedUntil: Date | null
  pendingDailyBidLimit: number | null
  pendingSelfExcludedUntil: Date | null
  limitsPendingAt: Date | null
  limitsVersion: number
}

const ms = (date: Date | null) => (date ? date.getTime() : null)
const date = (ms: number | null) => (ms === null ? null : new Date(ms))

/** A person's limits from their row. */
export function limitsOf(row: LimitColumns): Limits {
  return {
    dailyBidLimit: row.dailyBidLimit,
    selfExcludedUntil: ms(row.selfExcludedUntil),
    pending: row.limitsPendingAt
      ? {
          dailyBidLimit: row.pendingDailyBidLimit,
          selfExcludedUntil: ms(row.pendingSelfExcludedUntil),
          appliesAt: row.limitsPendingAt.getTime(),
        }
      : null,
    version: row.limitsVersion,
  }
}

/** The columns that keep `limits`. */
export function limitColumns(limits: Limits): LimitColumns {
  return {
    dailyBidLimit: limits.dailyBidLimit,
    selfExcludedUntil: date(limits.selfExcludedUntil),
    pendingDailyBidLimit: limits.pending?.dailyBidLimit ?? null,
    pendingSelfExcludedUntil: date(limits.pending?.selfExcludedUntil ?? null),
    limitsPendingAt: date(limits.pending?.appliesAt ?? null),
    limitsVersion: limits.version,
  }
}

/** An auction as the load script takes it. */
export type AuctionLoad = {
  id: string
  status: AuctionStatus
  price: number
  increment: number
  startTime: number
  bids: number
  meta: AuctionMeta
  /** A live auction's last bid ('' and not a bot when none): the leader its page shows. */
  lastBidder: string
  lastBidderName: string
  lastBidderIsBot: boolean
  /** A live auction's bidders so far: user ids, `bot:<id>` for bots. */
  bidders: string[]
  /** How many of a live auction's bids were the house's, in all and per bot (`bot:<id>`). */
  botBids: number
  botCounts: Array<[bidder: string, bids: number]>
  /** An upcoming auction's prebidders in the order placed (prebids not yet bids nor refunded). */
  prebidders: string[]
  /** Auto-bid budgets on an auction that has not finished. */
  budgets: BudgetHold[]
  /** Fair play (engine/lua/shared/rules.lua): for beginners only; when it closes to new bidders. */
  beginnerOnly: boolean
  lockAt: number | null
}

export async function readAuction(
  prisma: PrismaClient,
  auctionId: string,
): Promise<AuctionLoad | null> {
  const row = await prisma.auction.findUnique({
    where: { id: auctionId },
    select: auctionRowSelect,
  })
  return row ? withBids(prisma, row) : null
}

/**
 * Every auction that is not finished. One at a time: a live auction's bids are read just before
 * the caller puts it into Redis, not all of them first.
 */
export async function* readUnfinishedAuctions(prisma: PrismaClient): AsyncGenerator<AuctionLoad> {
  const rows = await prisma.auction.findMany({
    where: { status: { in: ['upcoming', 'live'] } },
    select: auctionRowSelect,
  })
  for (const row of rows) yield await withBids(prisma, row)
}

async function withBids(prisma: PrismaClient, row: AuctionRow): Promise<AuctionLoad> {
  return {
    id: row.id,
    status: row.status,
    price: row.currentPrice,
    increment: row.bidIncrement,
    startTime: row.startTime.getTime(),
    bids: row.totalBids,
    meta: {
      displayId: row.displayId,
      slug: row.slug,
      title: row.title,
      imageUrl: row.imageUrl,
      retailPrice: row.retailPrice,
      isBidPackage: row.isBidPackage,
    },
    ...(row.status === 'live' ? await readLiveBids(prisma, row.id) : noBids),
    prebidders:
      row.status === 'upcoming'
        ? (await readPrebidHolds(prisma, row.id)).map((prebid) => prebid.userId)
        : [],
    budgets: row.status === 'finished' ? [] : await readBudgetHolds(prisma, row.id),
    beginnerOnly: row.beginnerOnly,
    lockAt:
      row.lockAfterMinutes === null
        ? null
        : row.startTime.getTime() + row.lockAfterMinutes * 60_000,
  }
}

type LiveBids = Pick<
  AuctionLoad,
  'lastBidder' | 'lastBidderName' | 'lastBidderIsBot' | 'bidders' | 'botBids' | 'botCounts'
>

const noBids: LiveBids = {
  lastBidder: '',
  lastBidderName: '',
  lastBidderIsBot: false,
  bidders: [],
  botBids: 0,
  botCounts: [],
}

async function readLiveBids(prisma: PrismaClient, auctionId: string): Promise<LiveBids> {
  // Who has bid so far and how many bids were the house's: the live page's counts.
  const rows = await prisma.$queryRaw<Array<{ bidder: string; bot: boolean; bids: bigint }>>`
    SELECT COALESCE("userId", 'bot:' || "botId") AS bidder, bool_or("isBot") AS bot,
           count(*) AS bids
    FROM "Bid" WHERE "auctionId" = ${auctionId} AND ("userId" IS NOT NULL OR "botId" IS NOT NULL)
    GROUP BY 1`
  const bots = rows.filter((r) => r.bot)
  const lastBid = await prisma.bid.findFirst({
    where: { auctionId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: {
      userId: true,
      botId: true,
      isBot: true,
      botName: true,
      user: { select: { username: true } },
    },
  })
  const counts = {
    bidders: rows.map((r) => r.bidder),
    botBids: bots.reduce((sum, r) => sum + Number(r.bids), 0),
    botCounts: bots.map((r): [string, number] => [r.bidder, Number(r.bids)]),
  }
  if (!lastBid) return { ...noBids, ...counts }
  return {
    ...counts,
    lastBidder: lastBid.isBot ? `bot:${lastBid.botId ?? ''}` : (lastBid.userId ?? ''),
    lastBidderName: lastBid.isBot ? (lastBid.botName ?? '') : (lastBid.user?.username ?? ''),
    lastBidderIsBot: lastBid.isBot,
  }
}

const auctionRowSelect = {
  id: true,
  displayId: true,
  slug: true,
  title: true,
  imageUrl: true,
  retailPrice: true,
  isBidPackage: true,
  status: true,
  currentPrice: true,
  bidIncrement: true,
  startTime: true,
  totalBids: true,
  beginnerOnly: true,
  lockAfterMinutes: true,
} as const

/** The auction's row: what a page shows of it (its meta) and its numbers to load. */
type AuctionRow = AuctionMeta & {
  id: string
  status: AuctionStatus
  currentPrice: number
  bidIncrement: number
  startTime: Date
  totalBids: number
  beginnerOnly: boolean
  lockAfterMinutes: number | null
}
