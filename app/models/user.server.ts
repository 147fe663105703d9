import argon2 from 'argon2'
import { NotReplicated, type Engine } from '../../engine/index.ts'
import { log } from '~/services/logger.server.ts'
import { getPrisma } from '~/utils/db.server.ts'

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

export class DuplicateError extends Error {
  constructor(public readonly field: 'username' | 'email' | 'phone') {
    super(`${field} taken`)
  }
}

function duplicateField(error: unknown): 'username' | 'email' | 'phone' | null {
  if ((error as { code?: string } | null)?.code !== 'P2002') return null
  const text = JSON.stringify((error as { meta?: unknown }).meta ?? '') + String(error)
  if (text.includes('email')) return 'email'
  if (text.includes('phone')) return 'phone'
  return 'username'
}

/** A new account with its free bids, credited through the engine so the ledger records them. */
export async function createUser(
  engine: Engine,
  input: { username: string; email: string; password: string; ipAddress: string | null },
) {
  if (await isUsernameTaken(input.username)) throw new DuplicateError('username')
  if (await isEmailTaken(input.email)) throw new DuplicateError('email')
  const passwordHash = await hashPassword(input.password)
  let user
  try {
    user = await getPrisma().user.create({
      data: {
        username: input.username.trim(),
        email: input.email.trim().toLowerCase(),
        passwordHash,
        ipAddress: input.ipAddress,
      },
      select: { id: true, username: true },
    })
  } catch (error) {
    const field = duplicateField(error)
    if (field) throw new DuplicateError(field)
    throw error
  }
  try {
    await engine.credit(user.id, FREE_BIDS, 'registration_bonus', `registration:${user.id}`)
  } catch (error) {
    // The account exists by now: refusing the registration would leave a person who cannot
    // register again under their name. The free bids are on the primary, only not yet confirmed
    // by a replica (docs/decisions/037-acknowledged-after-a-replica.md); a failover in that
    // moment loses them and their ledger row together, so balance and ledger still agree.
    if (!(error instanceof NotReplicated)) throw error
    log.warn('registration bonus not yet on a replica', { userId: user.id })
  }
  return user
}

export async function recordIp(userId: string, ipAddress: string) {
  if (!ipAddress) return
  await getPrisma().user.update({ where: { id: userId }, data: { ipAddress } })
}

export { duplicateField }
