import { auctionNameOf, auctionNameSelect } from '~/models/auction-name.ts'
import { getPrisma } from '~/utils/db.server.ts'
import { DomainError } from '~/utils/domain-error.ts'
import { pageOf } from '~/utils/paging.ts'

// Finished auctions for the admin (docs/rules.md#admin-finished-auctions, with the auction
// stats). Money in minor units.

export const FINISHED_PER_PAGE = 20

export async function listFinished(page: number, perPage = FINISHED_PER_PAGE) {
  const prisma = getPrisma()
  const where = { status: 'finished' as const }
  const total = await prisma.auction.count({ where })
  const { current, totalPages, skip, take } = pageOf(total, page, perPage)
  const rows = await prisma.auction.findMany({
    where,
    orderBy: [{ endTime: 'desc' }, { id: 'asc' }],
    skip,
    take,
    select: {
      ...auctionNameSelect,
      retailPrice: true,
      finalPrice: true,
      currentPrice: true,
      endTime: true,
      totalBids: true,
      winnerBotName: true,
      winner: { select: { username: true, firstName: true, lastName: true, role: true } },
    },
  })
  return {
    auctions: rows.map((row) => {
      const finalPrice = row.finalPrice ?? row.currentPrice
      const savings = Math.max(0, row.retailPrice - finalPrice)
      return {
        ...auctionNameOf(row),
        retailPrice: row.retailPrice,
        finalPrice,
        endTime: row.endTime?.toISOString() ?? null,
        totalBids: row.totalBids,
        // The Auction entity's winner (a person), or null; a bot's win names the bot apart,
        // as the public auction answers do (docs/rules.md#shapes).
        winner: row.winner,
        winnerBotName: row.winner ? null : row.winnerBotName,
        savings,
        savingsPercent:
          row.retailPrice > 0 ? Math.round((savings / row.retailPrice) * 10_000) / 100 : 0,
      }
    }),
    total,
    page: current,
    totalPages,
  }
}

/** Auction stats (docs/rules.md#shapes): counts by kind of bidder, distinct participants, the bids. */
export async function auctionStats(auctionId: string) {
  const prisma = getPrisma()
  const auction = await prisma.auction.findUnique({
    where: { id: auctionId },
    select: { id: true },
  })
  if (!auction) throw new DomainError(404, 'errors.auctionNotFound')
  const bids = await prisma.bid.findMany({
    where: { auctionId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: {
      id: true,
      amount: true,
      isBot: true,
      botName: true,
      createdAt: true,
      user: { select: { id: true, username: true, role: true } },
    },
  })
  const participants = new Set(bids.map((bid) => (bid.isBot ? `bot:${bid.botName}` : bid.user?.id)))
  return {
    totalBids: bids.length,
    botBids: bids.filter((bid) => bid.isBot).length,
    userBids: bids.filter((bid) => !bid.isBot && bid.user?.role !== 'admin').length,
    adminBids: bids.filter((bid) => !bid.isBot && bid.user?.role === 'admin').length,
    uniqueParticipants: participants.size,
    bids: bids.map((bid) => ({
      id: bid.id,
      userName: bid.isBot ? bid.botName : (bid.user?.username ?? null),
      userRole: bid.isBot ? 'bot' : (bid.user?.role ?? null),
      bidAmount: bid.amount,
      createdAt: bid.createdAt.toISOString(),
    })),
  }
}
