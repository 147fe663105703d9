// The demo's users and bots, their ledgers and totals.
import argon2 from 'argon2'
import {
  AuctionStatus,
  LedgerReason,
  type Prisma,
  type PrismaClient,
} from '../../app/utils/db.server.ts'
import { BOTS, required, USERS, type Spend } from './data.ts'

export async function upsertUsers(prisma: PrismaClient, now: number) {
  const ids = new Map<string, string>()
  for (const user of USERS) {
    const existing = await prisma.user.findUnique({
      where: { username: user.username },
      select: { passwordHash: true },
    })
    const keepHash =
      existing?.passwordHash && (await argon2.verify(existing.passwordHash, user.password))
    const passwordHash = keepHash
      ? existing.passwordHash
      : await argon2.hash(user.password, { type: argon2.argon2id })
    const data = {
      email: user.email,
      passwordHash,
      role: user.role,
      firstName: user.firstName,
      lastName: user.lastName,
      phone: user.phone,
      dateOfBirth: user.dateOfBirth ? new Date(`${user.dateOfBirth}T00:00:00Z`) : null,
      gender: user.gender,
      ipAddress: user.ipAddress,
      bidBalance: user.bidBalance,
      createdAt: new Date(now - user.registeredAgo),
    }
    const saved = await prisma.user.upsert({
      where: { username: user.username },
      create: { username: user.username, ...data },
      update: data,
      select: { id: true },
    })
    ids.set(user.username, saved.id)
  }
  return ids
}

export async function upsertBots(prisma: PrismaClient) {
  const ids: string[] = []
  for (const bot of BOTS) {
    const saved = await prisma.bot.upsert({
      where: { username: bot.username },
      create: { ...bot, isActive: true },
      update: { firstName: bot.firstName, lastName: bot.lastName, isActive: true },
      select: { id: true },
    })
    ids.push(saved.id)
  }
  return ids
}

// The ledger explains each balance: one seed grant, then one row per credit spent, in time order.
export async function writeLedger(
  prisma: PrismaClient,
  now: number,
  userIds: Map<string, string>,
  spends: Spend[],
) {
  let rows = 0
  for (const user of USERS) {
    const userId = required(userIds.get(user.username), `user ${user.username}`)
    const own = spends
      .filter((spend) => spend.username === user.username)
      .sort((a, b) => a.at.getTime() - b.at.getTime())
    const registeredAt = new Date(now - user.registeredAgo)
    for (const spend of own) {
      if (spend.at < registeredAt) {
        throw new Error(`Seed data: ${user.username} spends a bid before registering`)
      }
    }
    let balance = user.bidBalance + own.length
    const entries: Prisma.BalanceLedgerCreateManyInput[] = [
      {
        userId,
        amount: balance,
        balanceAfter: balance,
        reason: LedgerReason.seed,
        reference: `seed:${user.username}`,
        createdAt: registeredAt,
      },
    ]
    for (const spend of own) {
      balance -= 1
      entries.push({
        userId,
        amount: -1,
        balanceAfter: balance,
        reason: spend.reason,
        reference: spend.reference,
        auctionId: spend.auctionId,
        createdAt: spend.at,
      })
    }
    await prisma.$transaction([
      prisma.balanceLedger.deleteMany({
        where: {
          OR: [
            { reference: `seed:${user.username}` },
            { reference: { startsWith: `seed:${user.username}:` } },
          ],
        },
      }),
      prisma.balanceLedger.createMany({ data: entries }),
    ])
    rows += entries.length
  }
  return rows
}

// Totals are counted from the database so they stay right whatever else the users have done.
export async function updateUserTotals(prisma: PrismaClient, userIds: Map<string, string>) {
  for (const userId of userIds.values()) {
    const [bids, prebids, won] = await Promise.all([
      prisma.bid.count({ where: { userId, isPrebid: false } }),
      prisma.prebid.count({ where: { userId } }),
      prisma.auction.count({ where: { winnerId: userId, status: AuctionStatus.finished } }),
    ])
    await prisma.user.update({
      where: { id: userId },
      data: { totalBids: bids + prebids, totalSpent: bids + prebids, wonAuctions: won },
    })
  }
}
