import type { Engine } from '../../engine/index.ts'
import { DomainError } from '~/utils/domain-error.ts'
import { listAssignments } from '~/models/admin-bots.server.ts'
import { getAuctionById, type AuctionView } from '~/models/auction-view.server.ts'
import { getPrisma } from '~/utils/db.server.ts'

// What the admin dashboard and its auction edit dialog read, besides the lists the other admin
// models give.

const BID_PACKAGES_SHOWN = 20

export async function getSystemStats() {
  const prisma = getPrisma()
  const [byStatus, bots, activeBots] = await Promise.all([
    prisma.auction.groupBy({ by: ['status'], _count: { _all: true } }),
    prisma.bot.count(),
    prisma.bot.count({ where: { isActive: true } }),
  ])
  const count = (status: string) => byStatus.find((row) => row.status === status)?._count._all ?? 0
  const live = count('live')
  const upcoming = count('upcoming')
  const finished = count('finished')
  return { total: live + upcoming + finished, live, upcoming, finished, bots, activeBots }
}

/** Upcoming bid-package auctions, soonest first, with their prebid counts from the engine. */
export async function getUpcomingBidPackages(engine: Engine) {
  const rows = await getPrisma().auction.findMany({
    where: { status: 'upcoming', isBidPackage: true },
    orderBy: [{ startTime: 'asc' }, { id: 'asc' }],
    take: BID_PACKAGES_SHOWN,
    select: { id: true },
  })
  const views = await Promise.all(rows.map((row) => getAuctionById(engine, row.id)))
  return views
    .filter((view) => view !== null && view.status === 'upcoming')
    .map((view) => ({
      id: view!.id,
      displayId: view!.displayId,
      slug: view!.slug,
      title: view!.title,
      startTime: view!.startTime,
      prebidsCount: view!.prebidsCount,
    }))
}

/** The fields of an auction its edit form shows. */
function editable(auction: AuctionView) {
  const { id, title, description, imageUrl, retailPrice, startTime, status } = auction
  const { condition, category, estimatedValue, featured, isBidPackage, packageBids } = auction
  const { beginnerOnly, lockAfterMinutes } = auction
  return {
    id,
    title,
    description,
    imageUrl,
    retailPrice,
    startTime,
    status,
    condition,
    category,
    estimatedValue,
    featured,
    isBidPackage,
    packageBids,
    beginnerOnly,
    lockAfterMinutes,
  }
}
export type EditableAuction = ReturnType<typeof editable>

/**
 * The edit dialog of one auction: the auction (null when there is none), its bots and every bot
 * that may be added to it.
 */
export async function getAuctionForEdit(engine: Engine, id: string) {
  const [auction, assignments, bots] = await Promise.all([
    getAuctionById(engine, id),
    listAssignments(id).catch((error: unknown) => {
      if (error instanceof DomainError) return []
      throw error
    }),
    getPrisma().bot.findMany({
      orderBy: [{ username: 'asc' }],
      select: { id: true, username: true, firstName: true, lastName: true },
    }),
  ])
  return {
    id,
    auction: auction ? editable(auction) : null,
    assignments: assignments.map((row) => ({
      botId: row.botId,
      username: row.bot.username,
      name: `${row.bot.firstName} ${row.bot.lastName}`,
      bidLimit: row.bidLimit,
      currentBids: row.currentBids,
    })),
    bots: bots.map((bot) => ({
      id: bot.id,
      label: `${bot.username} (${bot.firstName} ${bot.lastName})`,
    })),
  }
}
export type AuctionForEdit = Awaited<ReturnType<typeof getAuctionForEdit>>

/**
 * What a confirmation over the dashboard names (confirmRoute, app/services/confirm-route.server.ts):
 * the auction's title, its prebids (`count`) and, for one not started, the texts' `upcoming`
 * variant; null when there is no such auction.
 */
export async function auctionNamed(engine: Engine, id: string) {
  const auction = await getAuctionById(engine, id)
  if (!auction) return null
  return {
    name: auction.title,
    count: auction.prebidsCount,
    context: auction.status === 'upcoming' ? 'upcoming' : undefined,
  }
}
