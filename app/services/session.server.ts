import { createCookie } from '@remix-run/node'
import type { Engine } from '../../engine/index.ts'
import { log, noteRequest } from '~/services/logger.server.ts'
import { getRedis } from '~/services/redis.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import { readRows } from '~/utils/sql.server.ts'
import { cookieSecrets, getEnv } from '~/utils/env.server.ts'

// A signed cookie carries only the id of a Session row in Postgres; logging out deletes the row,
// so a stolen cookie dies with it. `__Host-` in production pins it to this origin over HTTPS.

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000

let cookie: ReturnType<typeof createCookie> | undefined
export function sessionCookie() {
  const env = getEnv()
  cookie ??= createCookie(env.NODE_ENV === 'production' ? '__Host-session' : 'session', {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: env.NODE_ENV === 'production',
    secrets: cookieSecrets(env),
    maxAge: SESSION_TTL_MS / 1000,
  })
  return cookie
}

export async function getSessionId(request: Request): Promise<string | null> {
  return sessionIdFromCookieHeader(request.headers.get('Cookie'))
}

// Checking a cookie's signature is a pure function of the Cookie header (the secrets do not
// change while the process runs), so the outcome is kept per header: the bid calls send the
// same header again and again. Bounded: emptied when it grows past KEPT_HEADERS.
const KEPT_HEADERS = 20_000
const verifiedHeaders = new Map<string, string | null>()

export async function sessionIdFromCookieHeader(header: string | null | undefined) {
  if (!header) return null
  const known = verifiedHeaders.get(header)
  if (known !== undefined) return known
  const value: unknown = await sessionCookie().parse(header)
  const sessionId = typeof value === 'string' && value.length > 0 ? value : null
  if (verifiedHeaders.size >= KEPT_HEADERS) verifiedHeaders.clear()
  verifiedHeaders.set(header, sessionId)
  return sessionId
}

/** The signed-in user's id for a raw Cookie header (the real-time handshake has no Request). */
export async function userIdFromCookieHeader(
  header: string | null | undefined,
): Promise<string | null> {
  const sessionId = await sessionIdFromCookieHeader(header)
  if (!sessionId) return null
  const session = await getPrisma().session.findUnique({
    where: { id: sessionId },
    select: { userId: true, expiresAt: true },
  })
  return session && session.expiresAt.getTime() > Date.now() ? session.userId : null
}

// The bid calls need only who is bidding: the session's user id is kept in Redis for a few
// minutes (never past the session's expiry) and dropped when the session ends, so a bid costs
// no Postgres read; each process also keeps it for two seconds, so a burst of bids costs no
// Redis read either (docs/decisions/020-session-user-cache.md).
const SESSION_CACHE_MS = 5 * 60 * 1000
// What an ended session's cache entry becomes for as long as an entry could live: a request that
// read the session row just before it was deleted cannot put it back (its write is `NX`).
const ENDED = 'ended'
const LOCAL_SESSION_MS = 2_000
const KEPT_SESSIONS = 50_000
const localSessions = new Map<string, { userId: string; until: number }>()

function keepLocally(sessionId: string, userId: string, expires: number) {
  if (localSessions.size >= KEPT_SESSIONS) localSessions.clear()
  localSessions.set(sessionId, { userId, until: Math.min(expires, Date.now() + LOCAL_SESSION_MS) })
}
const sessionCacheKey = (sessionId: string) => `{${getEnv().REDIS_PREFIX}}:s:${sessionId}`

/** The signed-in user's id, or null; cheap enough for every bid. */
export async function getOptionalUserId(request: Request): Promise<string | null> {
  return optionalUserIdFromCookieHeader(request.headers.get('Cookie'))
}

/** getOptionalUserId for a raw Cookie header. */
export async function optionalUserIdFromCookieHeader(
  header: string | null | undefined,
): Promise<string | null> {
  const sessionId = await sessionIdFromCookieHeader(header)
  if (!sessionId) return null
  const local = localSessions.get(sessionId)
  if (local && local.until > Date.now()) {
    noteRequest({ userId: local.userId })
    return local.userId
  }
  const redis = getRedis()
  const key = sessionCacheKey(sessionId)
  const cached = await redis.get(key).catch(() => null)
  if (cached === ENDED) return null
  if (cached) {
    const [userId = '', expires = '0'] = cached.split(' ')
    if (Number(expires) > Date.now()) {
      keepLocally(sessionId, userId, Number(expires))
      noteRequest({ userId })
      return userId
    }
  }
  const session = await getPrisma().session.findUnique({
    where: { id: sessionId },
    select: { userId: true, expiresAt: true },
  })
  const expires = session?.expiresAt.getTime() ?? 0
  if (!session || expires <= Date.now()) return null
  const ttl = Math.min(SESSION_CACHE_MS, expires - Date.now())
  await redis.set(key, `${session.userId} ${expires}`, 'PX', ttl, 'NX').catch(() => {})
  keepLocally(sessionId, session.userId, expires)
  noteRequest({ userId: session.userId })
  return session.userId
}

/** Ends a session's cached user id (logout, a new login replacing it, the account deleted). */
export async function forgetSession(sessionId: string) {
  localSessions.delete(sessionId)
  await getRedis()
    .set(sessionCacheKey(sessionId), ENDED, 'PX', SESSION_CACHE_MS)
    .catch((error: unknown) =>
      log.warn('a session id could not be dropped from the cache', { error: String(error) }),
    )
}

export const currentUserSelect = {
  id: true,
  username: true,
  email: true,
  firstName: true,
  lastName: true,
  role: true,
  bidBalance: true,
  wonAuctions: true,
} as const

export type CurrentUser = {
  id: string
  username: string
  email: string
  firstName: string | null
  lastName: string | null
  role: 'user' | 'admin'
  bidBalance: number
  wonAuctions: number
}

/** currentUserSelect as plain SQL: every signed-in page reads it (app/utils/sql.server.ts). */
const CURRENT_USER_SQL = `SELECT ${Object.keys(currentUserSelect)
  .map((column) => `"${column}"`)
  .join(', ')} FROM "User" WHERE "id" = $1`

// The root's loader and the page's own ask for the same request's user (each loader is handed
// a request object of its own): a read of a user's row that is under way is shared by whoever
// asks for the same row meanwhile. A read asked for after it has finished is a new one.
const readsUnderWay = new Map<string, Promise<CurrentUser | null>>()

function readCurrentUser(userId: string): Promise<CurrentUser | null> {
  let read = readsUnderWay.get(userId)
  if (!read) {
    read = readRows<CurrentUser>('current-user', CURRENT_USER_SQL, [userId])
      .then(([user]) => user ?? null)
      .finally(() => readsUnderWay.delete(userId))
    readsUnderWay.set(userId, read)
  }
  return read
}

const usersOfRequests = new WeakMap<Request, Promise<CurrentUser | null>>()

/**
 * The signed-in user, or null (no cookie, unknown, ended or expired session): the session's
 * user id as the bid calls find it (kept in Redis and for two seconds per process, decision
 * 020), then the user's row.
 */
export function getOptionalUser(request: Request): Promise<CurrentUser | null> {
  let user = usersOfRequests.get(request)
  if (!user) {
    user = getOptionalUserId(request).then((userId) => (userId ? readCurrentUser(userId) : null))
    usersOfRequests.set(request, user)
  }
  return user
}

/** The user with their bid balance as the engine holds it (Postgres may trail it by the outbox). */
export async function withLiveBalance(user: CurrentUser, engine: Engine): Promise<CurrentUser> {
  return { ...user, bidBalance: (await engine.getBalance(user.id)) ?? user.bidBalance }
}

/** A user's row as pages show it, by id (a session's user id), with the live bid balance. */
export async function currentUserOf(userId: string, engine: Engine): Promise<CurrentUser | null> {
  const user = await readCurrentUser(userId)
  return user && withLiveBalance(user, engine)
}
