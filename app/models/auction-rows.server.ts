import type { Engine } from '../../engine/index.ts'
import { catalogRead } from '~/models/shared-reads.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import { pageOf } from '~/utils/paging.ts'
import { auctionNameSelect, type AuctionName } from '~/models/auction-name.ts'

// Auctions as Postgres keeps them (docs/decisions/004-redis-hot-source-of-truth.md): rows, lists,
// counts and written bids. auction-view.server.ts merges a row with the auction's live state in
// Redis; auction-json.ts and bid-json.ts give the JSON shapes.

export type AuctionStatus = 'upcoming' | 'live' | 'finished'

const rowSelect = {
  ...auctionNameSelect,
  status: true,
  retailPrice: true,
  startingPrice: true,
  currentPrice: true,
  bidIncrement: true,
  estimatedValue: true,
  condition: true,
  category: true,
  featured: true,
  isBidPackage: true,
  packageBids: true,
  beginnerOnly: true,
  lockAfterMinutes: true,
  startTime: true,
  endTime: true,
  prebidsCount: true,
  totalBids: true,
  finalPrice: true,
  winnerBotName: true,
  createdAt: true,
  // Public answers name a winner by username only (docs/rules.md#shapes).
  winner: { select: { username: true } },
} as const

/** An auction's row as pages read it: money in minor units. */
export type AuctionRow = AuctionName & {
  status: AuctionStatus
  retailPrice: number
  startingPrice: number
  currentPrice: number
  bidIncrement: number
  estimatedValue: number | null
  condition: string | null
  category: string | null
  featured: boolean
  isBidPackage: boolean
  /** A bid-package auction's bids (docs/rules.md#bid-package-auctions); null for an item. */
  packageBids: number | null
  /** Fair play (docs/rules.md#fair-play-auctions): only people who have never won may bid. */
  beginnerOnly: boolean
  /** Fair play: live this many minutes, it closes to new bidders; null never. */
  lockAfterMinutes: number | null
  startTime: Date
  endTime: Date | null
  prebidsCount: number
  totalBids: number
  finalPrice: number | null
  winnerBotName: string | null
  createdAt: Date
  winner: { username: string } | null
}

/** The row of the auction with this slug, kept until the catalog changes. */
export function getAuctionRowBySlug(engine: Engine, slug: string): Promise<AuctionRow | null> {
  return catalogRead(engine, `slug:${slug}`, () =>
    getPrisma().auction.findUnique({ where: { slug }, select: rowSelect }),
  )
}

/** The id of the auction with this slug, or null: for posts to its page, no live state read. */
export async function getAuctionIdBySlug(engine: Engine, slug: string): Promise<string | null> {
  return (await getAuctionRowBySlug(engine, slug))?.id ?? null
}

export function getAuctionRowById(id: string): Promise<AuctionRow | null> {
  return getPrisma().auction.findUnique({ where: { id }, select: rowSelect })
}

/** The rows of these auctions, in no particular order (the watchlist sorts them). */
export function getAuctionRowsByIds(ids: string[]): Promise<AuctionRow[]> {
  return getPrisma().auction.findMany({ where: { id: { in: ids } }, select: rowSelect })
}

/**
 * The slug of the auction with this id or displayId, or whose older slug this is (a slug ends
 * with the lowercased displayId, which never changes, while the title part may): for links that
 * use those.
 */
export async function findAuctionSlug(idOrSlug: string): Promise<string | null> {
  if (!idOrSlug) return null
  const displayId = /(pa-\d{6,})$/i.exec(idOrSlug)?.[1]?.toUpperCase()
  const row = await getPrisma().auction.findFirst({
    where: {
      OR: [{ id: idOrSlug }, { displayId: idOrSlug }, ...(displayId ? [{ displayId }] : [])],
    },
    select: { slug: true },
  })
  return row?.slug ?? null
}

/** The auction with this displayId (the lot number people see), or null. */
export function getAuctionByDisplayId(displayId: string) {
  return getPrisma().auction.findUnique({
    where: { displayId },
    select: { id: true, title: true, status: true },
  })
}

/** Auctions not finished, live first then upcoming by start (the admin's table): one page. */
export async function getOpenAuctionRowsPage(page: number, perPage: number) {
  const prisma = getPrisma()
  const where = { status: { in: ['upcoming' as const, 'live' as const] } }
  const total = await prisma.auction.count({ where })
  const { current, totalPages, skip, take } = pageOf(total, page, perPage)
  const rows: AuctionRow[] = await prisma.auction.findMany({
    where,
    orderBy: [{ status: 'desc' }, { startTime: 'asc' }, { id: 'asc' }],
    skip,
    take,
    select: rowSelect,
  })
  return { rows, total, page: current, totalPages }
}

/** The page of `getOpenAuctionRowsPage` that shows the auction (1 when it is not open). */
export async function getOpenAuctionPageOf(id: string, perPage: number): Promise<number> {
  const prisma = getPrisma()
  const row = await prisma.auction.findUnique({
    where: { id },
    select: { status: true, startTime: true },
  })
  if (!row || row.status === 'finished') return 1
  // Live rows come first, then by start time and id: the same order as getOpenAuctionRowsPage.
  const before = await prisma.auction.count({
    where: {
      OR: [
        ...(row.status === 'upcoming' ? [{ status: 'live' as const }] : []),
        { status: row.status, startTime: { lt: row.startTime } },
        { status: row.status, startTime: row.startTime, id: { lt: id } },
      ],
    },
  })
  return Math.floor(before / perPage) + 1
}

/** The auctions not finished by start, and the latest finished ones: the API's groups. */
export async function getAuctionGroupRows(finishedLimit: number) {
  const prisma = getPrisma()
  const [open, finished]: [AuctionRow[], AuctionRow[]] = await Promise.all([
    prisma.auction.findMany({
      where: { status: { in: ['upcoming', 'live'] } },
      orderBy: { startTime: 'asc' },
      select: rowSelect,
    }),
    prisma.auction.findMany({
      where: { status: 'finished' },
      orderBy: { endTime: 'desc' },
      take: finishedLimit,
      select: rowSelect,
    }),
  ])
  return { open, finished }
}

/** Upcoming auctions by start, one page, kept until the catalog changes. */
export async function getUpcomingRowsPage(engine: Engine, page: number, perPage: number) {
  const prisma = getPrisma()
  const where = { status: 'upcoming' as const }
  const { rows, total, current, totalPages } = await catalogRead(
    engine,
    `upcoming:${page}:${perPage}`,
    async () => {
      const total = await prisma.auction.count({ where })
      const { current, totalPages, skip, take } = pageOf(total, page, perPage)
      const rows: AuctionRow[] = await prisma.auction.findMany({
        where,
        orderBy: [{ startTime: 'asc' }, { id: 'asc' }],
        skip,
        take,
        select: rowSelect,
      })
      return { rows, total, current, totalPages }
    },
  )
  return { rows, total, page: current, totalPages }
}

/** The home page's rows and counts, kept until the catalog changes. */
export async function getHomeAuctionRows(engine: Engine, upcomingShown: number) {
  const prisma = getPrisma()
  const [packages, packageCount, live, upcoming, upcomingTotal, winners, featured] =
    await catalogRead(engine, `home:${upcomingShown}`, () =>
      Promise.all([
        prisma.auction.findMany({
          where: { status: 'upcoming', isBidPackage: true },
          orderBy: { startTime: 'asc' },
          take: 4,
          select: rowSelect,
        }),
        prisma.auction.count({ where: { status: 'upcoming', isBidPackage: true } }),
        prisma.auction.findMany({
          where: { status: 'live' },
          orderBy: { startTime: 'asc' },
          select: rowSelect,
        }),
        prisma.auction.findMany({
          where: { status: 'upcoming' },
          orderBy: { startTime: 'asc' },
          take: upcomingShown,
          select: rowSelect,
        }),
        prisma.auction.count({ where: { status: 'upcoming' } }),
        prisma.auction.findMany({
          // The latest five with a winner, however long ago: a quiet day still shows some.
          where: {
            status: 'finished',
            OR: [{ winnerId: { not: null } }, { winnerBotName: { not: null } }],
          },
          orderBy: { endTime: 'desc' },
          take: 5,
          select: rowSelect,
        }),
        prisma.auction.findFirst({
          where: { status: 'upcoming', featured: true },
          orderBy: { startTime: 'asc' },
          select: rowSelect,
        }),
      ]),
    )
  return { packages, packageCount, live, upcoming, upcomingTotal, winners, featured }
}

/** A bid as Postgres keeps it: the amount in minor units. */
export type AuctionBidRow = {
  id: string
  amount: number
  isBot: boolean
  botId: string | null
  botName: string | null
  isPrebid: boolean
  createdAt: Date
  user: { id: string; username: string } | null
}

/** The auction's written bids, highest first. */
export function getAuctionBidRows(auctionId: string, limit: number): Promise<AuctionBidRow[]> {
  return getPrisma().bid.findMany({
    where: { auctionId },
    orderBy: [{ amount: 'desc' }, { createdAt: 'desc' }],
    take: limit,
    select: {
      id: true,
      amount: true,
      isBot: true,
      botId: true,
      botName: true,
      isPrebid: true,
      createdAt: true,
      user: { select: { id: true, username: true } },
    },
  })
}

/** Bid counts and distinct bidders (people by account, bots one by one) of one auction. */
export async function countAuctionBids(auctionId: string) {
  const rows = await getPrisma().$queryRaw<
    Array<{ total: bigint; bot: bigint; people: bigint; participants: bigint }>
  >`SELECT count(*) AS total,
           count(*) FILTER (WHERE "isBot") AS bot,
           count(*) FILTER (WHERE NOT "isBot") AS people,
           count(DISTINCT COALESCE("userId", 'bot:' || COALESCE("botId", "botName"))) AS participants
    FROM "Bid" WHERE "auctionId" = ${auctionId}`
  const row = rows[0]
  return {
    totalBids: Number(row?.total ?? 0),
    botBids: Number(row?.bot ?? 0),
    userBids: Number(row?.people ?? 0),
    uniqueParticipants: Number(row?.participants ?? 0),
  }
}

export async function hasUserPrebid(auctionId: string, userId: string) {
  return Boolean(
    await getPrisma().prebid.findUnique({
      where: { auctionId_userId: { auctionId, userId } },
      select: { id: true },
    }),
  )
}
