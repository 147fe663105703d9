import type { AuctionStatus } from '~/models/auction-rows.server.ts'
import { duplicateField, isEmailTaken, isPhoneTaken, takenRefusal } from '~/models/user.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import { readRows } from '~/utils/sql.server.ts'
import { toMajor } from '~/utils/money.ts'
import type { ProfileInput } from '~/validation/user.ts'

// A person's own account data: profile changes, statistics, won auctions, bids and prebids
// (docs/rules.md#profile-and-bid-history-pages). Money in minor units; the
// API routes convert to som. Definitions are in docs/decisions/009-account-statistics.md.

export const RECENT_BIDS = 10
export const BID_HISTORY_LIMIT = 100

/** Saves the profile form; a taken email or phone is refused (takenRefusal, 409 at its field). */
export async function updateProfile(userId: string, input: ProfileInput) {
  if (await isEmailTaken(input.email, userId)) throw takenRefusal('email')
  if (input.phone && (await isPhoneTaken(input.phone, userId))) throw takenRefusal('phone')
  try {
    await getPrisma().user.update({
      where: { id: userId },
      data: {
        firstName: input.firstName,
        lastName: input.lastName,
        email: input.email,
        phone: input.phone,
        dateOfBirth: input.dateOfBirth ? new Date(`${input.dateOfBirth}T00:00:00Z`) : null,
        gender: input.gender,
      },
    })
  } catch (error) {
    const field = duplicateField(error)
    if (field) throw takenRefusal(field)
    throw error
  }
}

export type UserStats = {
  /** The user's bids in auctions that are still running. */
  activeBids: number
  /** Prebids waiting for their auction to start. */
  activePrebids: number
  wonAuctions: number
  /** Bids spent, bids and prebids together (each costs one bid). */
  totalSpent: number
  /** Finished auctions the user bid in. */
  finishedAuctions: number
  /** Whole percent of finished auctions the user took part in that they won; 0 if none. */
  successRate: number
}

export function successRate(won: number, finished: number) {
  if (finished <= 0) return 0
  return Math.min(100, Math.round((won / finished) * 100))
}

// Counted in one plain statement (app/utils/sql.server.ts); counts come as text (bigint).
const STATS_SQL = `SELECT
      (SELECT count(*) FROM "Bid" b JOIN "Auction" a ON a.id = b."auctionId"
         WHERE b."userId" = $1 AND a.status <> 'finished') AS active_bids,
      (SELECT count(*) FROM "Prebid" p JOIN "Auction" a ON a.id = p."auctionId"
         WHERE p."userId" = $1 AND p."convertedAt" IS NULL AND a.status = 'upcoming')
         AS active_prebids,
      (SELECT count(*) FROM "Auction" WHERE "winnerId" = $1) AS won,
      (SELECT "totalSpent" FROM "User" WHERE id = $1) AS spent,
      (SELECT count(DISTINCT a.id) FROM "Auction" a
         WHERE a.status = 'finished' AND (
           EXISTS (SELECT 1 FROM "Bid" b WHERE b."auctionId" = a.id AND b."userId" = $1)
           OR a."winnerId" = $1)) AS finished`

export async function getUserStats(userId: string): Promise<UserStats> {
  const rows = await readRows<{
    active_bids: string
    active_prebids: string
    won: string
    spent: number | null
    finished: string
  }>('user-stats', STATS_SQL, [userId])
  const row = rows[0]
  const won = Number(row?.won ?? 0)
  const finished = Number(row?.finished ?? 0)
  return {
    activeBids: Number(row?.active_bids ?? 0),
    activePrebids: Number(row?.active_prebids ?? 0),
    wonAuctions: won,
    totalSpent: Number(row?.spent ?? 0),
    finishedAuctions: finished,
    successRate: successRate(won, finished),
  }
}

export type WonAuction = {
  id: string
  slug: string
  displayId: string
  title: string
  imageUrl: string | null
  finalPrice: number
  retailPrice: number
  endTime: string | null
  /** When it was won: the auction's end. */
  wonAt: string | null
}

const WON_SQL = `SELECT id, slug, "displayId", title, "imageUrl",
    COALESCE("finalPrice", "currentPrice") AS "finalPrice", "retailPrice", "endTime"
  FROM "Auction" WHERE "winnerId" = $1 AND status = 'finished'
  ORDER BY "endTime" DESC LIMIT $2`

export async function getWonAuctions(userId: string, limit = 24): Promise<WonAuction[]> {
  const rows = await readRows<Omit<WonAuction, 'endTime' | 'wonAt'> & { endTime: Date | null }>(
    'won-auctions',
    WON_SQL,
    [userId, limit],
  )
  return rows.map(({ endTime, ...row }) => ({
    ...row,
    endTime: endTime?.toISOString() ?? null,
    wonAt: endTime?.toISOString() ?? null,
  }))
}

/** A bid history item (docs/rules.md#shapes), with the time and the auction's slug for links. */
export type UserBid = {
  id: string
  amount: number
  /** Absent while house bids are not disclosed (app/models/house-bids.ts). */
  isBot?: boolean
  botName?: string | null
  isPrebid: boolean
  createdAt: string
  user: { id: string; username: string } | null
  auctionId: string
  auction: { id: string; slug: string; displayId: string; title: string; status: AuctionStatus }
}

// The bid with its auction and bidder in one plain statement (app/utils/sql.server.ts): through
// the ORM it was three (the bids, then their auctions and users by id).
const BIDS_SQL = (active: boolean) => `SELECT b.id, b.amount, b."isBot", b."botName", b."isPrebid",
    b."createdAt",
    CASE WHEN u.id IS NULL THEN NULL ELSE json_build_object('id', u.id, 'username', u.username) END
      AS "user",
    json_build_object('id', a.id, 'slug', a.slug, 'displayId', a."displayId", 'title', a.title,
      'status', a.status) AS auction
  FROM "Bid" b JOIN "Auction" a ON a.id = b."auctionId" LEFT JOIN "User" u ON u.id = b."userId"
  WHERE b."userId" = $1${active ? ` AND a.status <> 'finished'` : ''}
  ORDER BY b."createdAt" DESC, b.id DESC LIMIT $2`

/** The user's own bids, newest first; `active` keeps those in auctions still running. */
export async function getUserBids(
  userId: string,
  { active = false, limit = BID_HISTORY_LIMIT }: { active?: boolean; limit?: number } = {},
): Promise<UserBid[]> {
  const rows = await readRows<Omit<UserBid, 'createdAt' | 'auctionId'> & { createdAt: Date }>(
    active ? 'user-bids-active' : 'user-bids',
    BIDS_SQL(active),
    [userId, limit],
  )
  return rows.map((row) => ({
    ...row,
    auctionId: row.auction.id,
    createdAt: row.createdAt.toISOString(),
  }))
}

export type UserPrebid = {
  id: string
  createdAt: string
  convertedAt: string | null
  auction: {
    id: string
    slug: string
    displayId: string
    title: string
    status: AuctionStatus
    startTime: string
  }
}

/** The user's prebids, waiting ones first, then by their auction's start. */
export async function getUserPrebids(userId: string): Promise<UserPrebid[]> {
  const rows = await getPrisma().prebid.findMany({
    where: { userId },
    orderBy: [{ auction: { startTime: 'desc' } }],
    take: BID_HISTORY_LIMIT,
    select: {
      id: true,
      createdAt: true,
      convertedAt: true,
      auction: {
        select: {
          id: true,
          slug: true,
          displayId: true,
          title: true,
          status: true,
          startTime: true,
        },
      },
    },
  })
  const order = { upcoming: 0, live: 1, finished: 2 } as const
  return rows
    .map((row) => ({
      id: row.id,
      createdAt: row.createdAt.toISOString(),
      convertedAt: row.convertedAt?.toISOString() ?? null,
      auction: { ...row.auction, startTime: row.auction.startTime.toISOString() },
    }))
    .sort((a, b) => order[a.auction.status] - order[b.auction.status])
}

export type BidHistoryStats = {
  totalBids: number
  prebids: number
  participants: number
  /** Bids by people; absent while house bids are not disclosed (app/models/house-bids.ts). */
  userBids?: number
}

/**
 * The statistics card of /bid-history, over the auctions the user took part in: all bids in
 * them, prebids, distinct bidders (bots by name, people by account) and bids by people.
 */
export async function getBidHistoryStats(userId: string): Promise<BidHistoryStats> {
  const rows = await getPrisma().$queryRaw<
    Array<{ total: bigint; prebids: bigint; participants: bigint; people: bigint }>
  >`WITH mine AS (
      SELECT "auctionId" FROM "Bid" WHERE "userId" = ${userId}
      UNION SELECT "auctionId" FROM "Prebid" WHERE "userId" = ${userId}
    )
    SELECT count(*) AS total,
           count(*) FILTER (WHERE NOT "isBot") AS people,
           count(DISTINCT COALESCE("userId", 'bot:' || "botName")) AS participants,
           (SELECT count(*) FROM "Prebid" WHERE "auctionId" IN (SELECT "auctionId" FROM mine))
             AS prebids
    FROM "Bid" WHERE "auctionId" IN (SELECT "auctionId" FROM mine)`
  const row = rows[0]
  return {
    totalBids: Number(row?.total ?? 0),
    prebids: Number(row?.prebids ?? 0),
    participants: Number(row?.participants ?? 0),
    userBids: Number(row?.people ?? 0),
  }
}

// The JSON API speaks som (docs/rules.md#json-api).

export function userBidJson(bid: UserBid) {
  return { ...bid, amount: toMajor(bid.amount) }
}

export function wonAuctionJson(auction: WonAuction) {
  return {
    ...auction,
    finalPrice: toMajor(auction.finalPrice),
    retailPrice: toMajor(auction.retailPrice),
  }
}
