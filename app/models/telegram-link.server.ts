import { createHash, randomBytes } from 'node:crypto'
import { getPrisma, isUniqueViolation, type Prisma } from '~/utils/db.server.ts'

// Telegram chats linked to people (docs/rules.md#telegram): a one-time link from the profile,
// one chat per person and one person per chat.

/** How long a link from the profile can be opened. */
export const LINK_TOKEN_TTL_MS = 15 * 60_000

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex')

/** A new one-time token (Telegram's deep-link start parameter: up to 64 of A-Z a-z 0-9 _ -). */
export async function createLinkToken(userId: string, now = new Date()): Promise<string> {
  const token = randomBytes(24).toString('base64url')
  const prisma = getPrisma()
  await prisma.$transaction([
    // Tokens of this person already used or expired have nothing more to say.
    prisma.telegramLinkToken.deleteMany({
      where: { userId, OR: [{ usedAt: { not: null } }, { expiresAt: { lt: now } }] },
    }),
    prisma.telegramLinkToken.create({
      data: { hash: hashOf(token), userId, expiresAt: new Date(now.getTime() + LINK_TOKEN_TTL_MS) },
    }),
  ])
  return token
}

export type TelegramChat = { chatId: number; telegramUserId: number; language: string | null }

export type LinkOutcome =
  { ok: true; userId: string } | { ok: false; reason: 'invalid' | 'expired' | 'used' | 'chatTaken' }

/**
 * Links the chat that opened the link to the token's person, using the token up; the person's
 * earlier chat is replaced. A chat already linked to someone else is refused and the token kept
 * (that chat unlinks with /stop first).
 */
export async function linkChat(token: string, chat: TelegramChat, now = new Date()) {
  const prisma = getPrisma()
  return prisma.$transaction(async (tx): Promise<LinkOutcome> => {
    const hash = hashOf(token)
    const row = await tx.telegramLinkToken.findUnique({ where: { hash } })
    if (!row) return { ok: false, reason: 'invalid' }
    if (row.usedAt) return { ok: false, reason: 'used' }
    if (row.expiresAt < now) return { ok: false, reason: 'expired' }
    const { userId } = row
    if (await heldByOther(tx, chat, userId)) return { ok: false, reason: 'chatTaken' }
    // Used once even when two chats open it at the same moment.
    const used = await tx.telegramLinkToken.updateMany({
      where: { hash, usedAt: null },
      data: { usedAt: now },
    })
    if (used.count === 0) return { ok: false, reason: 'used' }
    await saveLink(tx, userId, chat, now)
    return { ok: true, userId }
  })
}

/** Whether the chat is linked to someone other than `userId`. */
async function heldByOther(tx: Prisma.TransactionClient, chat: TelegramChat, userId: string) {
  const holder = await tx.telegramLink.findUnique({ where: { chatId: BigInt(chat.chatId) } })
  return holder !== null && holder.userId !== userId
}

/** Links the chat to `userId`, replacing their earlier chat. */
async function saveLink(
  tx: Prisma.TransactionClient,
  userId: string,
  chat: TelegramChat,
  now: Date,
) {
  const data = {
    chatId: BigInt(chat.chatId),
    telegramUserId: BigInt(chat.telegramUserId),
    language: chat.language,
    linkedAt: now,
  }
  await tx.telegramLink.upsert({ where: { userId }, create: { userId, ...data }, update: data })
}

/**
 * Links a Telegram account that proved itself with a Mini App's launch data to the person
 * signed in there (docs/rules.md#telegram-mini-app). A private chat with the bot has the
 * person's Telegram id as its id. A chat already linked to someone else is refused.
 */
export async function linkTelegramUser(
  userId: string,
  chat: TelegramChat,
  now = new Date(),
): Promise<LinkOutcome> {
  try {
    return await getPrisma().$transaction(async (tx): Promise<LinkOutcome> => {
      if (await heldByOther(tx, chat, userId)) return { ok: false, reason: 'chatTaken' }
      await saveLink(tx, userId, chat, now)
      return { ok: true, userId }
    })
  } catch (error) {
    // Two links of the same chat at once: the other one won the chat.
    if (isUniqueViolation(error)) return { ok: false, reason: 'chatTaken' }
    throw error
  }
}

export type LinkedPerson = { userId: string; telegramUserId: number; language: string | null }

export async function personOfChat(chatId: number): Promise<LinkedPerson | null> {
  const link = await getPrisma().telegramLink.findUnique({ where: { chatId: BigInt(chatId) } })
  if (!link) return null
  return {
    userId: link.userId,
    telegramUserId: Number(link.telegramUserId),
    language: link.language,
  }
}

/** The people among these who have a linked chat. */
export async function linkedAmong(userIds: readonly string[]): Promise<Set<string>> {
  const links = await getPrisma().telegramLink.findMany({
    where: { userId: { in: [...userIds] } },
    select: { userId: true },
  })
  return new Set(links.map((link) => link.userId))
}

export async function chatOfUser(userId: string): Promise<number | null> {
  const link = await getPrisma().telegramLink.findUnique({ where: { userId } })
  return link ? Number(link.chatId) : null
}

/** Forgets the person's chat (the profile's unlink). True when there was one. */
export async function unlinkUser(userId: string): Promise<boolean> {
  return (await getPrisma().telegramLink.deleteMany({ where: { userId } })).count > 0
}

/** Forgets the chat (/stop in the bot, a chat that blocked the bot). True when it was linked. */
export async function unlinkChat(chatId: number): Promise<boolean> {
  const removed = await getPrisma().telegramLink.deleteMany({ where: { chatId: BigInt(chatId) } })
  return removed.count > 0
}

export type TelegramStatus = {
  linked: boolean
  verifiedPhone: string | null
  freeBidsOnPhone: boolean
}

/** What the profile's Telegram section shows. */
export async function telegramStatus(userId: string): Promise<TelegramStatus> {
  const [link, user] = await Promise.all([
    getPrisma().telegramLink.findUnique({ where: { userId }, select: { linkedAt: true } }),
    getPrisma().user.findUnique({
      where: { id: userId },
      select: { verifiedPhone: true, phoneVerifiedAt: true, freeBidsOnPhone: true },
    }),
  ])
  return {
    linked: Boolean(link),
    verifiedPhone: user?.verifiedPhone ?? null,
    freeBidsOnPhone: user?.freeBidsOnPhone ?? false,
  }
}
