import type { Engine } from '../../engine/index.ts'
import { DomainError } from '~/utils/domain-error.ts'
import { adjustBidBalance, balanceChange, balanceReference } from '~/models/admin-balance.server.ts'
import { assertUserDeletable, deleteWithUnpaidOrders } from '~/models/money-records.server.ts'
import {
  duplicateField,
  isEmailTaken,
  isPhoneTaken,
  isUsernameTaken,
  takenRefusal,
} from '~/models/user.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import { TIME_ZONE_OFFSET } from '~/utils/dates.ts'
import type { UserEditInput } from '~/validation/admin-users.ts'
import { pageOf } from '~/utils/paging.ts'

export { BALANCE_REFUSALS, newIdempotencyKey } from '~/models/admin-balance.server.ts'

// Users as an admin sees and edits them (docs/rules.md#admin-users).

export const USERS_PER_PAGE = 10

const listSelect = {
  id: true,
  username: true,
  firstName: true,
  lastName: true,
  email: true,
  phone: true,
  ipAddress: true,
  bidBalance: true,
  role: true,
  totalBids: true,
  wonAuctions: true,
  totalSpent: true,
  createdAt: true,
} as const

/** One page of users, newest first, searched by username, names, email or phone. */
export async function listUsers(engine: Engine, page: number, limit: number, search: string) {
  const prisma = getPrisma()
  const term = search.trim().slice(0, 100)
  const where = term
    ? {
        OR: (['username', 'firstName', 'lastName', 'email', 'phone'] as const).map((field) => ({
          [field]: { contains: term, mode: 'insensitive' as const },
        })),
      }
    : {}
  const total = await prisma.user.count({ where })
  const { current, totalPages, skip, take } = pageOf(total, page, limit)
  const rows = await prisma.user.findMany({
    where,
    orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
    skip,
    take,
    select: listSelect,
  })
  // The balance lives in Redis; Postgres may trail it by the outbox.
  const balances = await Promise.all(rows.map((row) => engine.getBalance(row.id)))
  return {
    users: rows.map((row, index) => ({
      ...row,
      bidBalance: balances[index] ?? row.bidBalance,
      createdAt: row.createdAt.toISOString(),
    })),
    total,
    page: current,
    totalPages,
  }
}

/** The last midnight in Bishkek. */
function bishkekMidnight(now: Date) {
  const bishkekDate = new Date(now.getTime() + 6 * 3_600_000).toISOString().slice(0, 10)
  return new Date(`${bishkekDate}T00:00:00${TIME_ZONE_OFFSET}`)
}

/** Accounts created since midnight in Bishkek. */
export async function todayRegistrations(now = new Date()) {
  return getPrisma().user.count({ where: { createdAt: { gte: bishkekMidnight(now) } } })
}

/**
 * Free bids given since midnight in Bishkek (at registration or for a verified phone), counted
 * as grants: the admin settings page shows it (docs/rules.md#admin-settings).
 */
export async function todayFreeGrants(now = new Date()) {
  return getPrisma().balanceLedger.count({
    where: { reason: 'registration_bonus', createdAt: { gte: bishkekMidnight(now) } },
  })
}

/**
 * Saves an admin's edit (the page's form and PATCH /api/admin/users/{id}). The fields and the
 * balance change succeed or fail together: the balance changes last, inside the transaction
 * that saves the fields, so a refused change leaves the fields as they were. An admin cannot
 * take their own admin role away (someone must be left to give it back).
 */
export async function editUser(
  engine: Engine,
  adminId: string,
  id: string,
  input: UserEditInput,
  idempotencyKey?: string,
) {
  const prisma = getPrisma()
  const user = await prisma.user.findUnique({ where: { id }, select: { id: true, role: true } })
  if (!user) throw new DomainError(404, 'errors.userNotFound')
  if (id === adminId && input.role === 'user') throw new DomainError(409, 'errors.ownRole')
  const balance = balanceChange(input)
  if (input.username && (await isUsernameTaken(input.username, id))) throw takenRefusal('username')
  if (input.email && (await isEmailTaken(input.email, id))) throw takenRefusal('email')
  if (input.phone && (await isPhoneTaken(input.phone, id))) throw takenRefusal('phone')
  try {
    await prisma.$transaction(async (tx) => {
      await tx.user.update({
        where: { id },
        data: {
          ...(input.username !== undefined ? { username: input.username } : {}),
          ...(input.firstName !== undefined ? { firstName: input.firstName } : {}),
          ...(input.lastName !== undefined ? { lastName: input.lastName } : {}),
          ...(input.email !== undefined ? { email: input.email } : {}),
          ...(input.phone !== undefined ? { phone: input.phone } : {}),
          ...(input.role !== undefined ? { role: input.role } : {}),
        },
      })
      if (balance)
        await adjustBidBalance(
          engine,
          adminId,
          id,
          balance,
          balanceReference(adminId, id, idempotencyKey),
        )
    })
  } catch (error) {
    const field = duplicateField(error)
    if (field) throw new DomainError(409, `errors.${field}Taken`)
    throw error
  }
  const row = await prisma.user.findUniqueOrThrow({ where: { id }, select: listSelect })
  return {
    ...row,
    bidBalance: (await engine.getBalance(id)) ?? row.bidBalance,
    createdAt: row.createdAt.toISOString(),
  }
}

/**
 * Refuses an admin's delete of this account unless it is another's, exists, and has no order
 * holding money and no payment pending (docs/decisions/029-nothing-paid-disappears.md).
 */
export async function assertDeletableByAdmin(adminId: string, id: string) {
  if (id === adminId) throw new DomainError(409, 'errors.deleteSelf')
  const prisma = getPrisma()
  const exists = await prisma.user.findUnique({ where: { id }, select: { id: true } })
  if (!exists) throw new DomainError(404, 'errors.userNotFound')
  await assertUserDeletable(prisma, id)
}

/**
 * Deletes an account whose sessions have ended (app/services/delete-user.server.ts): prebids and
 * auto-bidders go; bids and wins stay on the auctions without a name
 * (docs/decisions/012-admin-deletes.md). The money is checked again under the account's lock.
 */
export async function deleteUserRecords(engine: Engine, id: string) {
  const prisma = getPrisma()
  await prisma.$transaction(async (tx) => {
    // Held until the end, so that no payment or order of theirs is written meanwhile.
    await tx.$queryRaw`SELECT id FROM "User" WHERE id = ${id} FOR UPDATE`
    await assertUserDeletable(tx, id)
    const prebids = await tx.prebid.findMany({
      where: { userId: id, convertedAt: null },
      select: { auctionId: true },
    })
    await deleteWithUnpaidOrders(tx, { userId: id }, 'errors.userHasPayments', async () => {
      const result = await tx.user.deleteMany({ where: { id } })
      if (result.count === 0) throw new DomainError(404, 'errors.userNotFound')
    })
    // The engine lets go of them last, before the row's removal is committed: from now on no
    // bid, auto bid or prebid of theirs is taken, and their prebids do not become bids at the
    // start (engine/lua/remove-user.lua). If this fails, the account stays as it was.
    const removed = await engine.removeUser(id)
    for (const { auctionId } of prebids) {
      if (!removed.prebids.has(auctionId)) continue
      await tx.auction.updateMany({
        where: { id: auctionId, prebidsCount: { gt: 0 } },
        data: { prebidsCount: { decrement: 1 } },
      })
    }
  })
  await engine.catalogChanged()
}

/** User activity (docs/rules.md#shapes). Money in minor units. */
export async function userActivity(id: string) {
  const prisma = getPrisma()
  const user = await prisma.user.findUnique({ where: { id }, select: { id: true } })
  if (!user) throw new DomainError(404, 'errors.userNotFound')
  const [won, bids, prebids] = await Promise.all([
    prisma.auction.findMany({
      where: { winnerId: id },
      orderBy: { endTime: 'desc' },
      take: 50,
      select: { id: true, title: true, finalPrice: true, currentPrice: true, endTime: true },
    }),
    prisma.bid.groupBy({
      by: ['auctionId'],
      where: { userId: id },
      _count: { _all: true },
      _max: { createdAt: true },
      orderBy: { _max: { createdAt: 'desc' } },
      take: 50,
    }),
    prisma.prebid.findMany({
      where: { userId: id },
      orderBy: { createdAt: 'desc' },
      take: 50,
      select: { id: true, createdAt: true, auction: { select: { title: true, status: true } } },
    }),
  ])
  const auctions = await prisma.auction.findMany({
    where: { id: { in: bids.map((bid) => bid.auctionId) } },
    select: { id: true, title: true, currentPrice: true, status: true },
  })
  const byId = new Map(auctions.map((auction) => [auction.id, auction]))
  return {
    wonAuctions: won.map((auction) => ({
      id: auction.id,
      title: auction.title,
      finalPrice: auction.finalPrice ?? auction.currentPrice,
      endTime: auction.endTime?.toISOString() ?? null,
    })),
    activeBids: bids.flatMap((bid) => {
      const auction = byId.get(bid.auctionId)
      if (!auction) return []
      return [
        {
          id: auction.id,
          auctionTitle: auction.title,
          bidCount: bid._count._all,
          currentPrice: auction.currentPrice,
          status: auction.status,
          createdAt: bid._max.createdAt?.toISOString() ?? null,
        },
      ]
    }),
    prebids: prebids.map((prebid) => ({
      id: prebid.id,
      auctionTitle: prebid.auction.title,
      status: prebid.auction.status,
      createdAt: prebid.createdAt.toISOString(),
    })),
  }
}
