import type { PrismaClient } from '../prisma/generated/client.ts'
import { readBudgetHolds, readPrebidHolds, type BudgetHold } from './holds.ts'
import type { AuctionMeta, AuctionStatus } from './types.ts'

// What the engine puts into Redis when Redis lacks it, read from Postgres: a user's balance and
// name on first use, an auction after it is created or edited, every unfinished auction at
// start-up. engine.ts puts it into Redis with the load scripts (engine/lua/), which keep what Redis
// already holds; an auction Redis lost gets its prebids and auto-bid budgets back (holds.ts).

/** A user as the engine keeps them: the bid balance and the name bid lists show. */
export type UserLoad = { balance: number; name: string }

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
}

export async function readUser(prisma: PrismaClient, userId: string): Promise<UserLoad | null> {
  const user = await prisma.user.findUnique({
    where: { id: userId },
    select: { bidBalance: true, username: true },
  })
  return user ? { balance: user.bidBalance, name: user.username } : null
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
} as const

/** The auction's row: what a page shows of it (its meta) and its numbers to load. */
type AuctionRow = AuctionMeta & {
  id: string
  status: AuctionStatus
  currentPrice: number
  bidIncrement: number
  startTime: Date
  totalBids: number
}
