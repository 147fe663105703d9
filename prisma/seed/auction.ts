// One seeded auction with its bids, prebids and bot assignments, replaced on every run.
import {
  AuctionStatus,
  LedgerReason,
  type Prisma,
  type PrismaClient,
} from '../../app/utils/db.server.ts'
import { packageBidsFor } from '../../app/utils/bid-packages.ts'
import { formatDisplayId } from '../../app/utils/display-id.ts'
import { slugify } from '../../app/utils/slug.ts'
import {
  BOTS,
  botIndex,
  DAY,
  HOUR,
  MINUTE,
  required,
  SECOND,
  som,
  type SeedAuction,
  type Spend,
} from './data.ts'

export async function seedAuction(
  prisma: PrismaClient,
  seed: SeedAuction,
  index: number,
  ctx: {
    now: number
    userIds: Map<string, string>
    botIds: string[]
    spends: Spend[]
    /** Title -> the product picture's imageUrl. */
    pictures: Map<string, string>
  },
) {
  const displayId = formatDisplayId(index + 1)
  const startTime = new Date(ctx.now + seed.startIn)
  const bidders = seed.bids ?? []
  const spacing = seed.bidSpacing ?? 5 * SECOND
  const bidIncrement = 1
  const startingPrice = 0
  const isFinished = seed.status === AuctionStatus.finished
  const isLive = seed.status === AuctionStatus.live

  // Bids run up to the last event: a finished auction's timer ran out 10 s after its last bid.
  const lastBidAt =
    ctx.now + (seed.lastEventIn ?? 0) - (isFinished && bidders.length > 0 ? 10 * SECOND : 0)
  const bidTimes = bidders.map((_, i) => new Date(lastBidAt - (bidders.length - 1 - i) * spacing))
  const convertedPrebid = isLive ? seed.prebids?.[0] : undefined
  if (convertedPrebid) bidTimes[0] = startTime

  const lastBidder = bidders.at(-1)
  const winner = isFinished && lastBidder && botIndex(lastBidder) === null ? lastBidder : undefined
  const price = startingPrice + bidders.length * bidIncrement
  const prebidUsers = seed.status === AuctionStatus.upcoming ? (seed.prebids ?? []) : []

  const data = {
    slug: slugify(seed.title, displayId),
    title: seed.title,
    description: seed.description,
    imageUrl: ctx.pictures.get(seed.title) ?? null,
    retailPrice: som(seed.retailPriceSom),
    startingPrice,
    currentPrice: price,
    bidIncrement,
    estimatedValue: som(seed.retailPriceSom),
    condition: seed.condition ?? 'Новый',
    category: seed.category,
    featured: seed.featured ?? false,
    startTime,
    endTime: isFinished ? new Date(ctx.now + (seed.lastEventIn ?? 0)) : null,
    status: seed.status,
    isBidPackage: seed.isBidPackage ?? false,
    packageBids: seed.isBidPackage
      ? (seed.packageBids ?? packageBidsFor(som(seed.retailPriceSom)))
      : null,
    prebidsCount: prebidUsers.length + (convertedPrebid ? 1 : 0),
    totalBids: bidders.length,
    winnerId: winner ? required(ctx.userIds.get(winner), `user ${winner}`) : null,
    finalPrice: isFinished && bidders.length > 0 ? price : null,
    createdAt: new Date(Math.min(startTime.getTime(), ctx.now) - 3 * DAY),
  }

  return prisma.$transaction(async (tx) => {
    const auction = await tx.auction.upsert({
      where: { displayId },
      create: { displayId, ...data },
      update: data,
      select: { id: true },
    })
    const auctionId = auction.id
    await tx.bid.deleteMany({ where: { auctionId } })
    await tx.prebid.deleteMany({ where: { auctionId } })
    await tx.botAssignment.deleteMany({ where: { auctionId } })

    const bids: Prisma.BidCreateManyInput[] = bidders.map((bidder, i) => {
      const at = required(bidTimes[i], 'bid time')
      const bot = botIndex(bidder)
      const isPrebid = i === 0 && convertedPrebid !== undefined
      if (bot !== null) {
        const botName = required(BOTS[bot], `bot ${bidder}`).username
        return {
          auctionId,
          botId: required(ctx.botIds[bot], `bot ${bidder}`),
          isBot: true,
          botName,
          amount: startingPrice + (i + 1) * bidIncrement,
          createdAt: at,
          // Its place in the auction's record (docs/fair-play.md); house bids are disclosed.
          seq: i + 1,
          kind: 'bot',
          bidderName: botName,
        }
      }
      if (!isPrebid) {
        ctx.spends.push({
          username: bidder,
          at,
          reason: LedgerReason.bid,
          reference: `seed:${bidder}:bid:${displayId}:${i + 1}`,
          auctionId,
        })
      }
      return {
        auctionId,
        userId: required(ctx.userIds.get(bidder), `user ${bidder}`),
        isPrebid,
        amount: startingPrice + (i + 1) * bidIncrement,
        createdAt: at,
        seq: i + 1,
        kind: isPrebid ? 'prebid' : 'bid',
        bidderName: bidder,
      }
    })
    await tx.bid.createMany({ data: bids })

    const prebids: Prisma.PrebidCreateManyInput[] = []
    const placedBefore = (offset: number) =>
      new Date(Math.min(ctx.now, startTime.getTime()) - offset)
    for (const [i, username] of [
      ...(convertedPrebid ? [convertedPrebid] : []),
      ...prebidUsers,
    ].entries()) {
      const createdAt = placedBefore((i + 1) * 37 * MINUTE)
      prebids.push({
        auctionId,
        userId: required(ctx.userIds.get(username), `user ${username}`),
        createdAt,
        convertedAt: convertedPrebid ? startTime : null,
      })
      ctx.spends.push({
        username,
        at: createdAt,
        reason: LedgerReason.prebid,
        reference: `seed:${username}:prebid:${displayId}`,
        auctionId,
      })
    }
    await tx.prebid.createMany({ data: prebids })

    const assignments = Object.entries(seed.bots ?? {}).map(([bot, bidLimit]) => ({
      auctionId,
      botId: required(ctx.botIds[Number(bot)], `bot ${bot}`),
      bidLimit,
      currentBids: bidders.filter((bidder) => bidder === `bot:${bot}`).length,
      isActive: isLive,
      createdAt: new Date(startTime.getTime() - HOUR),
    }))
    await tx.botAssignment.createMany({ data: assignments })

    return { auctionId, bids: bids.length, prebids: prebids.length }
  })
}
