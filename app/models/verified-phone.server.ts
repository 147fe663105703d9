import type { Engine } from '../../engine/index.ts'
import { FREE_BIDS } from '~/models/user.server.ts'
import { errorFields, log } from '~/utils/logger.server.ts'
import { getPrisma } from '~/utils/db.server.ts'

// Phones Telegram confirmed as their sender's own (docs/rules.md#verified-phone-and-free-bids,
// docs/decisions/059-telegram-and-verified-phone.md): a +996 number is the person's verified
// phone, and the first time a number is verified by an account waiting for its free bids it
// earns them, once per number ever.

/** +996 and nine digits, from what Telegram sends (with or without the +, spaces, dashes). */
export function kyrgyzPhone(raw: string): string | null {
  const digits = raw.trim().replace(/[\s()-]/g, '')
  const match = /^\+?(996\d{9})$/.exec(digits)
  return match ? `+${match[1]}` : null
}

export const phoneFreeBidsReference = (phone: string) => `phone:${phone}`

export type PhoneVerification =
  { ok: true; phone: string; granted: boolean } | { ok: false; reason: 'notKyrgyz' }

/**
 * Records `rawPhone` as the account's verified phone (a number moves to the account that
 * verified it last) and gives the free bids when the account waits for them and the number has
 * never earned them.
 */
export async function verifyPhone(
  engine: Engine,
  userId: string,
  rawPhone: string,
): Promise<PhoneVerification> {
  const phone = kyrgyzPhone(rawPhone)
  if (!phone) return { ok: false, reason: 'notKyrgyz' }
  const prisma = getPrisma()
  const before = await prisma.user.findMany({
    where: { verifiedPhone: phone, id: { not: userId } },
    select: { id: true },
  })
  await prisma.$transaction([
    prisma.user.updateMany({
      where: { verifiedPhone: phone, id: { not: userId } },
      data: { verifiedPhone: null, phoneVerifiedAt: null },
    }),
    prisma.user.update({
      where: { id: userId },
      data: { verifiedPhone: phone, phoneVerifiedAt: new Date() },
    }),
    prisma.verifiedPhone.createMany({
      data: [{ phone, firstUserId: userId }],
      skipDuplicates: true,
    }),
  ])
  // The win limit counts wins per verified phone (docs/rules.md#fair-play-auctions): the engine
  // learns who holds the number now.
  for (const id of [userId, ...before.map((user) => user.id)]) await engine.loadUser(id)
  return { ok: true, phone, granted: await grantPhoneFreeBids(engine, userId, phone) }
}

/**
 * The number's free bids for an account waiting for them: the number is claimed for the account
 * in Postgres first (at most one account ever), then credited through the engine with the
 * number's reference, which it applies once however often this is tried. A failed credit leaves
 * the claim and the account waiting; the next share of the same number finishes it.
 */
async function grantPhoneFreeBids(engine: Engine, userId: string, phone: string) {
  const prisma = getPrisma()
  const user = await prisma.user.findUnique({
    where: { id: userId },
    select: { freeBidsOnPhone: true },
  })
  if (!user?.freeBidsOnPhone) return false
  await prisma.verifiedPhone.updateMany({
    where: { phone, grantedUserId: null },
    data: { grantedUserId: userId },
  })
  const claim = await prisma.verifiedPhone.findUnique({ where: { phone } })
  if (claim?.grantedUserId !== userId || claim.grantedAt) return false
  const reference = phoneFreeBidsReference(phone)
  try {
    const written = await prisma.balanceLedger.findUnique({
      where: { reference },
      select: { id: true },
    })
    if (!written) {
      const result = await engine.credit(userId, FREE_BIDS, 'registration_bonus', reference)
      if (!result.ok) return false
    }
  } catch (error) {
    log.warn('phone free bids not given yet', { userId, ...errorFields(error) })
    return false
  }
  await prisma.$transaction([
    prisma.verifiedPhone.update({ where: { phone }, data: { grantedAt: new Date() } }),
    prisma.user.update({ where: { id: userId }, data: { freeBidsOnPhone: false } }),
  ])
  return true
}
