import argon2 from 'argon2'
import type { Engine } from '../../engine/index.ts'
import { getSettings } from '~/models/settings.server.ts'
import { errorFields, log } from '~/utils/logger.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import { DomainError } from '~/utils/domain-error.ts'

// Accounts: creation with the free bids, password checks, availability, profile.

export const FREE_BIDS = 5

/** OWASP's argon2id recommendation (m = 19 MiB, t = 2, p = 1). */
const hashOptions = {
  type: argon2.argon2id,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const

export function hashPassword(password: string) {
  return argon2.hash(password, hashOptions)
}

// Verifying against this when the user does not exist keeps a failed login as slow as a wrong
// password, so timing does not tell whether a username exists.
let dummyHash: Promise<string> | undefined
function getDummyHash() {
  dummyHash ??= argon2.hash('not-a-real-password', hashOptions)
  return dummyHash
}

export async function verifyLogin(login: string, password: string) {
  const value = login.trim()
  const user = await getPrisma().user.findFirst({
    where: value.includes('@')
      ? { email: value.toLowerCase() }
      : { username: { equals: value, mode: 'insensitive' } },
    select: { id: true, passwordHash: true },
  })
  const hash = user?.passwordHash ?? (await getDummyHash())
  const ok = await argon2.verify(hash, password).catch(() => false)
  return ok && user?.passwordHash ? user.id : null
}

export async function isUsernameTaken(username: string, exceptUserId?: string) {
  const user = await getPrisma().user.findFirst({
    where: {
      username: { equals: username.trim(), mode: 'insensitive' },
      ...(exceptUserId ? { id: { not: exceptUserId } } : {}),
    },
    select: { id: true },
  })
  if (user) return true
  const bot = await getPrisma().bot.findFirst({
    where: { username: { equals: username.trim(), mode: 'insensitive' } },
    select: { id: true },
  })
  return Boolean(bot)
}

export async function isEmailTaken(email: string, exceptUserId?: string) {
  const user = await getPrisma().user.findFirst({
    where: {
      email: email.trim().toLowerCase(),
      ...(exceptUserId ? { id: { not: exceptUserId } } : {}),
    },
    select: { id: true },
  })
  return Boolean(user)
}

export async function isPhoneTaken(phone: string, exceptUserId?: string) {
  const user = await getPrisma().user.findFirst({
    where: { phone, ...(exceptUserId ? { id: { not: exceptUserId } } : {}) },
    select: { id: true },
  })
  return Boolean(user)
}

/** The text keys of a username, email or phone someone else has. */
export const TAKEN = {
  username: 'validation.usernameTaken',
  email: 'validation.emailTaken',
  phone: 'validation.phoneTaken',
} as const

/** A username, email or phone someone else has: 409, said at its field. */
export function takenRefusal(field: keyof typeof TAKEN) {
  return new DomainError(409, TAKEN[field], field)
}

function duplicateField(error: unknown): 'username' | 'email' | 'phone' | null {
  if ((error as { code?: string } | null)?.code !== 'P2002') return null
  const text = JSON.stringify((error as { meta?: unknown }).meta ?? '') + String(error)
  if (text.includes('email')) return 'email'
  if (text.includes('phone')) return 'phone'
  return 'username'
}

/**
 * A new account with its free bids, credited through the engine so the ledger records them.
 * The account is created owing them (User.freeBidsPending) and the grant clears that; when the
 * grant fails (Redis away, no replica in time) the account stays, and its next sign-in or a
 * registration sent again gives them (grantFreeBids, docs/decisions/043-free-bids-owed.md).
 * While free bids need a verified phone, or when `freeBidsNow` says no, the account owes nothing
 * yet: they come with the phone (app/models/verified-phone.server.ts,
 * docs/decisions/059-telegram-and-verified-phone.md).
 */
export async function createUser(
  engine: Engine,
  input: {
    username: string
    email: string
    password: string
    ipAddress: string | null
    /**
     * Asked once the account is known to be new, unless free bids need a verified phone anyway:
     * false when they may not be given now (the address's daily allowance is spent), and then
     * they wait for a verified phone too.
     */
    freeBidsNow?: () => Promise<boolean>
  },
) {
  if (await isUsernameTaken(input.username)) throw takenRefusal('username')
  if (await isEmailTaken(input.email)) throw takenRefusal('email')
  const passwordHash = await hashPassword(input.password)
  // With "free bids need a verified phone" they wait for the phone (verifyPhone).
  const { freeBidsNeedPhone } = await getSettings()
  const now = !freeBidsNeedPhone && (input.freeBidsNow ? await input.freeBidsNow() : true)
  let user
  try {
    user = await getPrisma().user.create({
      data: {
        username: input.username.trim(),
        email: input.email.trim().toLowerCase(),
        passwordHash,
        ipAddress: input.ipAddress,
        freeBidsPending: now,
        freeBidsOnPhone: !now,
      },
      select: { id: true, username: true, freeBidsOnPhone: true },
    })
  } catch (error) {
    const field = duplicateField(error)
    if (field) throw takenRefusal(field)
    throw error
  }
  // The account exists by now: refusing the registration would leave a person who cannot
  // register again under their name.
  await grantOwedFreeBids(engine, user.id)
  return user
}

/**
 * Gives an account the free bids it is owed, exactly once: the credit's reference is the
 * account's, so the engine applies it once however often it is tried (concurrent sign-ins too),
 * and a ledger row already written for it means they were given, also when Redis has lost the
 * reference since. Accounts not owing them are left alone.
 */
export async function grantOwedFreeBids(engine: Engine, userId: string): Promise<void> {
  const prisma = getPrisma()
  try {
    const owed = await prisma.user.findUnique({
      where: { id: userId },
      select: { freeBidsPending: true },
    })
    if (!owed?.freeBidsPending) return
    const reference = freeBidsReference(userId)
    const written = await prisma.balanceLedger.findUnique({
      where: { reference },
      select: { id: true },
    })
    if (!written) {
      const result = await engine.credit(userId, FREE_BIDS, 'registration_bonus', reference)
      if (!result.ok) return
    }
    await prisma.user.updateMany({
      where: { id: userId, freeBidsPending: true },
      data: { freeBidsPending: false },
    })
  } catch (error) {
    // A replica that did not confirm in time (decision 037) or Redis away: the account still
    // owes them, and the next try (a sign-in) gives them.
    log.warn('free bids not given yet', { userId, ...errorFields(error) })
  }
}

export const freeBidsReference = (userId: string) => `registration:${userId}`

/**
 * A registration sent again after the first one failed on the way (its free bids still owed):
 * the same username, email and password are that account, which the registration finishes.
 */
export async function unfinishedRegistration(input: {
  username: string
  email: string
  password: string
}): Promise<string | null> {
  const user = await getPrisma().user.findFirst({
    where: {
      username: { equals: input.username.trim(), mode: 'insensitive' },
      email: input.email.trim().toLowerCase(),
      freeBidsPending: true,
    },
    select: { id: true, passwordHash: true },
  })
  if (!user?.passwordHash) return null
  const ok = await argon2.verify(user.passwordHash, input.password).catch(() => false)
  return ok ? user.id : null
}

export async function recordIp(userId: string, ipAddress: string) {
  if (!ipAddress) return
  await getPrisma().user.update({ where: { id: userId }, data: { ipAddress } })
}

export { duplicateField }
