import type { AuctionMeta, AuctionState, Engine } from '../../engine/index.ts'
import { presentBid, type LiveBid } from '~/models/live-auction.ts'
import { catalogRead, recentRead } from '~/models/shared-reads.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import { toMajor } from '~/utils/money.ts'

// Auctions for people (docs/rules.md#screens): the row from Postgres, the live numbers
// from the engine in Redis whenever the auction is not finished.

export type AuctionStatus = 'upcoming' | 'live' | 'finished'

/** An auction as pages render it: money in minor units, times as ISO strings. */
export type AuctionView = {
  id: string
  displayId: string
  slug: string
  title: string
  description: string
  imageUrl: string | null
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
  startTime: string
  endTime: string | null
  prebidsCount: number
  totalBids: number
  lastBidder: string | null
  lastBidderId: string | null
  lastBidderIsBot: boolean
  /** Live: ms left on the timer when read (server clock). */
  timeLeft: number | null
  /** Upcoming: ms until the start when read (server clock). */
  startsIn: number | null
  finalPrice: number | null
  winner: {
    username: string
    firstName: string | null
    lastName: string | null
    role: 'user' | 'admin'
  } | null
  winnerBotName: string | null
  createdAt: string
}

const viewSelect = {
  id: true,
  displayId: true,
  slug: true,
  title: true,
  description: true,
  imageUrl: true,
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
  startTime: true,
  endTime: true,
  prebidsCount: true,
  totalBids: true,
  finalPrice: true,
  winnerBotName: true,
  createdAt: true,
  winner: { select: { id: true, username: true, firstName: true, lastName: true, role: true } },
} as const

type Row = {
  id: string
  displayId: string
  slug: string
  title: string
  description: string
  imageUrl: string | null
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
  startTime: Date
  endTime: Date | null
  prebidsCount: number
  totalBids: number
  finalPrice: number | null
  winnerBotName: string | null
  createdAt: Date
  winner: {
    id: string
    username: string
    firstName: string | null
    lastName: string | null
    role: 'user' | 'admin'
  } | null
}

function toView(row: Row, state: AuctionState | null, now: number): AuctionView {
  // Redis knows better while the auction runs, and for a while after it ends, until the
  // outbox has written the finish to Postgres.
  const live = state && (row.status !== 'finished' || state.status === 'finished') ? state : null
  const status = live?.status ?? row.status
  const price = live?.price ?? row.currentPrice
  return {
    id: row.id,
    displayId: row.displayId,
    slug: row.slug,
    title: row.title,
    description: row.description,
    imageUrl: row.imageUrl,
    status,
    retailPrice: row.retailPrice,
    startingPrice: row.startingPrice,
    currentPrice: price,
    bidIncrement: row.bidIncrement,
    estimatedValue: row.estimatedValue,
    condition: row.condition,
    category: row.category,
    featured: row.featured,
    isBidPackage: row.isBidPackage,
    startTime: row.startTime.toISOString(),
    endTime: live?.endedAt
      ? new Date(live.endedAt).toISOString()
      : (row.endTime?.toISOString() ?? null),
    prebidsCount: Math.max(row.prebidsCount, live?.prebids ?? 0),
    totalBids: live ? live.bids : row.totalBids,
    lastBidder: live?.lastBidderName ?? null,
    lastBidderId: live?.lastBidder ?? null,
    lastBidderIsBot: live?.lastBidderIsBot ?? false,
    timeLeft:
      live?.status === 'live' && live.deadline !== null ? Math.max(0, live.deadline - now) : null,
    startsIn: status === 'upcoming' ? Math.max(0, row.startTime.getTime() - now) : null,
    finalPrice: status === 'finished' ? (row.finalPrice ?? price) : null,
    winner:
      row.status === 'finished' && row.winner
        ? {
            username: row.winner.username,
            firstName: row.winner.firstName,
            lastName: row.winner.lastName,
            role: row.winner.role,
          }
        : status === 'finished' && live?.lastBidderName && !live.lastBidderIsBot
          ? { username: live.lastBidderName, firstName: null, lastName: null, role: 'user' }
          : null,
    winnerBotName:
      row.winnerBotName ??
      (status === 'finished' && live?.lastBidderIsBot ? live.lastBidderName : null),
    createdAt: row.createdAt.toISOString(),
  }
}

async function withLiveState(engine: Engine, rows: Row[]): Promise<AuctionView[]> {
  const open = rows.filter((row) => row.status !== 'finished')
  const [now, states] = await Promise.all([
    engine.now(),
    engine.getStates(open.map((row) => row.id)),
  ])
  const byId = new Map(open.map((row, index) => [row.id, states[index] ?? null]))
  return rows.map((row) => toView(row, byId.get(row.id) ?? null, now))
}

export async function getAuctionBySlug(engine: Engine, slug: string): Promise<AuctionView | null> {
  const row = await auctionRowBySlug(engine, slug)
  if (!row) return null
  const [view] = await withLiveState(engine, [row])
  return view ?? null
}

/** The id of the auction with this slug, or null: for posts to its page, no live state read. */
export async function getAuctionIdBySlug(engine: Engine, slug: string): Promise<string | null> {
  return (await auctionRowBySlug(engine, slug))?.id ?? null
}

function auctionRowBySlug(engine: Engine, slug: string) {
  return catalogRead(engine, `slug:${slug}`, () =>
    getPrisma().auction.findUnique({ where: { slug }, select: viewSelect }),
  )
}

export async function getAuctionById(engine: Engine, id: string): Promise<AuctionView | null> {
  const row = await getPrisma().auction.findUnique({ where: { id }, select: viewSelect })
  if (!row) return null
  const [view] = await withLiveState(engine, [row])
  return view ?? null
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

/** Auctions not finished, live first then upcoming by start (the admin's table). */
export async function getOpenAuctionsPage(engine: Engine, page: number, perPage: number) {
  const prisma = getPrisma()
  const where = { status: { in: ['upcoming' as const, 'live' as const] } }
  const total = await prisma.auction.count({ where })
  const totalPages = Math.max(1, Math.ceil(total / perPage))
  const current = Math.min(Math.max(1, page), totalPages)
  const rows = await prisma.auction.findMany({
    where,
    orderBy: [{ status: 'desc' }, { startTime: 'asc' }, { id: 'asc' }],
    skip: (current - 1) * perPage,
    take: perPage,
    select: viewSelect,
  })
  return { auctions: await withLiveState(engine, rows), total, page: current, totalPages }
}

/** The page of `getOpenAuctionsPage` that shows the auction (1 when it is not open). */
export async function getOpenAuctionPageOf(id: string, perPage: number): Promise<number> {
  const prisma = getPrisma()
  const row = await prisma.auction.findUnique({
    where: { id },
    select: { status: true, startTime: true },
  })
  if (!row || row.status === 'finished') return 1
  // Live rows come first, then by start time and id: the same order as getOpenAuctionsPage.
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

/** The auctions response (docs/rules.md#calls): the three groups. */
export async function getAuctionGroups(engine: Engine, { finishedLimit = 20 } = {}) {
  const prisma = getPrisma()
  const [open, finished] = await Promise.all([
    prisma.auction.findMany({
      where: { status: { in: ['upcoming', 'live'] } },
      orderBy: { startTime: 'asc' },
      select: viewSelect,
    }),
    prisma.auction.findMany({
      where: { status: 'finished' },
      orderBy: { endTime: 'desc' },
      take: finishedLimit,
      select: viewSelect,
    }),
  ])
  const views = await withLiveState(engine, [...open, ...finished])
  return {
    live: views.filter((view) => view.status === 'live'),
    upcoming: views.filter((view) => view.status === 'upcoming'),
    finished: views.filter((view) => view.status === 'finished'),
  }
}

/** The upcoming auctions page: sorted by start, paged (docs/rules.md#upcoming-auctions: 12 per page). */
export async function getUpcomingPage(engine: Engine, page: number, perPage = 12) {
  const prisma = getPrisma()
  const where = { status: 'upcoming' as const }
  const { rows, total, current, totalPages } = await catalogRead(
    engine,
    `upcoming:${page}:${perPage}`,
    async () => {
      const total = await prisma.auction.count({ where })
      const totalPages = Math.max(1, Math.ceil(total / perPage))
      const current = Math.min(Math.max(1, page), totalPages)
      const rows = await prisma.auction.findMany({
        where,
        orderBy: [{ startTime: 'asc' }, { id: 'asc' }],
        skip: (current - 1) * perPage,
        take: perPage,
        select: viewSelect,
      })
      return { rows, total, current, totalPages }
    },
  )
  return { auctions: await withLiveState(engine, rows), total, page: current, totalPages }
}

/** The bid history: live auctions from Redis (newest first), finished ones from Postgres. */
export async function getAuctionBids(
  engine: Engine,
  auction: { id: string; status: AuctionStatus },
  limit = 50,
): Promise<LiveBid[]> {
  if (auction.status !== 'finished') {
    const recent = await engine.getRecentBids(auction.id, limit)
    if (recent.length > 0 || auction.status === 'upcoming') return recent.map(presentBid)
  }
  const rows = await getPrisma().bid.findMany({
    where: { auctionId: auction.id },
    orderBy: [{ amount: 'desc' }, { createdAt: 'desc' }],
    take: limit,
    select: {
      id: true,
      amount: true,
      isBot: true,
      botName: true,
      isPrebid: true,
      createdAt: true,
      user: { select: { id: true, username: true } },
    },
  })
  return rows.map((row) => ({
    id: row.id,
    amount: toMajor(row.amount),
    isBot: row.isBot,
    botName: row.botName,
    isPrebid: row.isPrebid,
    user: row.user,
    createdAt: row.createdAt.toISOString(),
  }))
}

/**
 * Bid counts and distinct bidders (people by account, bots one by one) of one auction: a live
 * one's from Redis, kept by the bid script; others' counted in Postgres, up to 1 s old.
 */
export async function getAuctionStats(engine: Engine, auctionId: string) {
  return (
    (await engine.getBidStats(auctionId)) ??
    recentRead(`stats:${auctionId}`, 1_000, () => countAuctionBids(auctionId))
  )
}

async function countAuctionBids(auctionId: string) {
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

/** The JSON API's auction (docs/rules.md#shapes): money in som. */
export function auctionJson(view: AuctionView) {
  return {
    ...view,
    retailPrice: toMajor(view.retailPrice),
    startingPrice: toMajor(view.startingPrice),
    currentPrice: toMajor(view.currentPrice),
    bidIncrement: toMajor(view.bidIncrement),
    nextBidPrice: toMajor(view.currentPrice + view.bidIncrement),
    estimatedValue: view.estimatedValue === null ? null : toMajor(view.estimatedValue),
    finalPrice: view.finalPrice === null ? null : toMajor(view.finalPrice),
  }
}

export type { AuctionMeta }

// Home page data.
export async function getHomeAuctions(engine: Engine, upcomingShown: number) {
  const prisma = getPrisma()
  const startOfDay = new Date(Date.now() - 24 * 60 * 60 * 1000)
  const [packages, packageCount, live, upcoming, upcomingTotal, winners, featured] =
    await catalogRead(engine, `home:${upcomingShown}`, () =>
      Promise.all([
        prisma.auction.findMany({
          where: { status: 'upcoming', isBidPackage: true },
          orderBy: { startTime: 'asc' },
          take: 4,
          select: viewSelect,
        }),
        prisma.auction.count({ where: { status: 'upcoming', isBidPackage: true } }),
        prisma.auction.findMany({
          where: { status: 'live' },
          orderBy: { startTime: 'asc' },
          select: viewSelect,
        }),
        prisma.auction.findMany({
          where: { status: 'upcoming' },
          orderBy: { startTime: 'asc' },
          take: upcomingShown,
          select: viewSelect,
        }),
        prisma.auction.count({ where: { status: 'upcoming' } }),
        prisma.auction.findMany({
          where: { status: 'finished', endTime: { gte: startOfDay } },
          orderBy: { endTime: 'desc' },
          take: 5,
          select: viewSelect,
        }),
        prisma.auction.findFirst({
          where: { status: 'upcoming', featured: true },
          orderBy: { startTime: 'asc' },
          select: viewSelect,
        }),
      ]),
    )
  const views = await withLiveState(engine, [
    ...packages,
    ...live,
    ...upcoming,
    ...winners,
    ...(featured ? [featured] : []),
  ])
  let index = 0
  const take = (n: number) => views.slice(index, (index += n))
  return {
    packages: take(packages.length),
    packageCount,
    live: take(live.length).filter((view) => view.status === 'live'),
    upcoming: take(upcoming.length),
    upcomingTotal,
    winners: take(winners.length),
    featured: featured ? (take(1)[0] ?? null) : null,
  }
}
