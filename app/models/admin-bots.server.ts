import { randomInt } from 'node:crypto'
import { DomainError } from '~/utils/domain-error.ts'
import { isUsernameTaken, takenRefusal } from '~/models/user.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import type { BotCreateInput, BotSettingsInput } from '~/validation/admin-bots.ts'
import { pageOf } from '~/utils/paging.ts'

// Bots and their settings (docs/rules.md#bots). The engine's bot worker re-reads
// settings and assignments every 2 s, so changes here reach the bidding within that time.

export const BOTS_PER_PAGE = 5

export async function getBotSettings() {
  const row = await getPrisma().botSettings.upsert({ where: { id: 1 }, create: {}, update: {} })
  return {
    enabled: row.enabled,
    minDelay: row.minDelay,
    maxDelay: row.maxDelay,
    activeBots: row.activeBots,
  }
}

/** Saves the changed fields; the minimum delay never exceeds the maximum. */
export async function updateBotSettings(input: BotSettingsInput) {
  const current = await getBotSettings()
  const next = { ...current, ...stripUndefined(input) }
  if (next.minDelay > next.maxDelay) throw new DomainError(400, 'errors.delayOrder')
  await getPrisma().botSettings.update({ where: { id: 1 }, data: next })
  return next
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>
}

export async function listBots(page: number, perPage = BOTS_PER_PAGE) {
  const prisma = getPrisma()
  const total = await prisma.bot.count()
  const { current, totalPages, skip, take } = pageOf(total, page, perPage)
  const bots = await prisma.bot.findMany({
    orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
    skip,
    take,
    select: {
      id: true,
      username: true,
      firstName: true,
      lastName: true,
      isActive: true,
      createdAt: true,
    },
  })
  return {
    bots: bots.map((bot) => ({ ...bot, createdAt: bot.createdAt.toISOString() })),
    total,
    page: current,
    totalPages,
  }
}

const translit: Record<string, string> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  д: 'd',
  е: 'e',
  ё: 'e',
  ж: 'zh',
  з: 'z',
  и: 'i',
  й: 'i',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  ң: 'n',
  о: 'o',
  ө: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ү: 'u',
  ф: 'f',
  х: 'h',
  ц: 'ts',
  ч: 'ch',
  ш: 'sh',
  щ: 'sch',
  ъ: '',
  ы: 'y',
  ь: '',
  э: 'e',
  ю: 'yu',
  я: 'ya',
}

/** A username that reads like a person's: latin first name, initial, two digits. */
export function botUsername(firstName: string, lastName: string, digits: number) {
  const latin = (text: string) =>
    [...text.toLowerCase()]
      .map((c) => translit[c] ?? c)
      .join('')
      .replace(/[^a-z0-9]/g, '')
  const first = latin(firstName).slice(0, 16) || 'user'
  const initial = latin(lastName).slice(0, 1)
  return `${first}${initial}${String(digits).padStart(2, '0')}`
}

export async function createBot(input: BotCreateInput) {
  let username = input.username
  if (username) {
    if (await isUsernameTaken(username)) throw takenRefusal('username')
  } else {
    for (let attempt = 0; attempt < 20 && !username; attempt++) {
      const candidate = botUsername(
        input.firstName,
        input.lastName,
        randomInt(0, 100 + attempt * 50),
      )
      if (!(await isUsernameTaken(candidate))) username = candidate
    }
    if (!username) throw takenRefusal('username')
  }
  try {
    const bot = await getPrisma().bot.create({
      data: {
        username,
        firstName: input.firstName,
        lastName: input.lastName,
        isActive: input.isActive,
      },
    })
    return { ...bot, createdAt: bot.createdAt.toISOString() }
  } catch (error) {
    if ((error as { code?: string } | null)?.code === 'P2002') throw takenRefusal('username')
    throw error
  }
}

/** A bot's username, or null when there is no such bot. */
export async function getBotUsername(id: string) {
  const bot = await getPrisma().bot.findUnique({ where: { id }, select: { username: true } })
  return bot?.username ?? null
}

/** Deletes a bot; its past bids keep its name (house bids stay visible as such). */
export async function deleteBot(id: string) {
  const result = await getPrisma().bot.deleteMany({ where: { id } })
  if (result.count === 0) throw new DomainError(404, 'errors.botNotFound')
}

export async function listAssignments(auctionId: string) {
  const prisma = getPrisma()
  const auction = await prisma.auction.findUnique({
    where: { id: auctionId },
    select: { id: true },
  })
  if (!auction) throw new DomainError(404, 'errors.auctionNotFound')
  const rows = await prisma.botAssignment.findMany({
    where: { auctionId },
    orderBy: { createdAt: 'asc' },
    select: {
      id: true,
      botId: true,
      bidLimit: true,
      currentBids: true,
      isActive: true,
      bot: {
        select: { id: true, username: true, firstName: true, lastName: true, isActive: true },
      },
    },
  })
  return rows
}

export async function assignBot(auctionId: string, botId: string, bidLimit: number) {
  const prisma = getPrisma()
  const [auction, bot] = await Promise.all([
    prisma.auction.findUnique({ where: { id: auctionId }, select: { status: true } }),
    prisma.bot.findUnique({ where: { id: botId }, select: { id: true } }),
  ])
  if (!auction) throw new DomainError(404, 'errors.auctionNotFound')
  if (!bot) throw new DomainError(404, 'errors.botNotFound')
  if (auction.status === 'finished') throw new DomainError(409, 'errors.auctionFinished')
  try {
    return await prisma.botAssignment.create({
      data: { auctionId, botId, bidLimit },
      select: { id: true, botId: true, bidLimit: true, currentBids: true, isActive: true },
    })
  } catch (error) {
    if ((error as { code?: string } | null)?.code === 'P2002')
      throw new DomainError(409, 'errors.botAlreadyAssigned')
    throw error
  }
}

export async function unassignBot(auctionId: string, botId: string) {
  const result = await getPrisma().botAssignment.deleteMany({ where: { auctionId, botId } })
  if (result.count === 0) throw new DomainError(404, 'errors.assignmentNotFound')
}

/** An auction whose bots are current: one not over yet. */
const CURRENT = { status: { not: 'finished' as const } }

/** Bot auction status (docs/rules.md#shapes): per bot, the auctions it is assigned to that are not over. */
export async function botAuctionStatus() {
  const rows = await getPrisma().botAssignment.findMany({
    where: { auction: CURRENT },
    orderBy: { createdAt: 'asc' },
    select: {
      botId: true,
      bidLimit: true,
      currentBids: true,
      auction: { select: { id: true, title: true } },
    },
  })
  const byBot: Record<
    string,
    Array<{ auctionId: string; auctionTitle: string; currentBids: number; bidLimit: number }>
  > = {}
  for (const row of rows) {
    ;(byBot[row.botId] ??= []).push({
      auctionId: row.auction.id,
      auctionTitle: row.auction.title,
      currentBids: row.currentBids,
      bidLimit: row.bidLimit,
    })
  }
  return byBot
}

/** How many auctions the dashboard's bots-in-auction selector offers, soonest first. */
export const BOT_CARD_AUCTIONS = 200

/**
 * The dashboard's bots-in-auction card: the auctions not over (soonest first) to choose from, the
 * one chosen (`selected` when it is one of them, else the first with bots, else the first) and
 * its bots as the bot auction status gives them, with their names.
 */
export async function botsInAuction(selected: string | null) {
  const prisma = getPrisma()
  const [auctions, status] = await Promise.all([
    prisma.auction.findMany({
      where: CURRENT,
      orderBy: [{ startTime: 'asc' }, { id: 'asc' }],
      take: BOT_CARD_AUCTIONS,
      select: { id: true, displayId: true, title: true, status: true },
    }),
    botAuctionStatus(),
  ])
  const withBots = new Set(Object.values(status).flatMap((list) => list.map((a) => a.auctionId)))
  const chosen =
    auctions.find((auction) => auction.id === selected) ??
    auctions.find((auction) => withBots.has(auction.id)) ??
    auctions[0] ??
    null
  const entries = chosen
    ? Object.entries(status).flatMap(([botId, list]) =>
        list
          .filter((entry) => entry.auctionId === chosen.id)
          .map(({ currentBids, bidLimit }) => ({ botId, currentBids, bidLimit })),
      )
    : []
  const bots = await prisma.bot.findMany({
    where: { id: { in: entries.map((entry) => entry.botId) } },
    select: { id: true, username: true, firstName: true, lastName: true, isActive: true },
  })
  const byId = new Map(bots.map((bot) => [bot.id, bot]))
  return {
    auctions,
    selected: chosen?.id ?? null,
    bots: entries.flatMap((entry) => {
      const bot = byId.get(entry.botId)
      return bot
        ? [
            {
              ...entry,
              username: bot.username,
              name: `${bot.firstName} ${bot.lastName}`,
              isActive: bot.isActive,
            },
          ]
        : []
    }),
  }
}
