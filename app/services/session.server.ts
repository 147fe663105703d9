import { createCookie } from '@remix-run/node'
import { LRUCache } from 'lru-cache'
import { keysOf, type Engine } from '../../engine/index.ts'
import { log, noteRequest } from '~/utils/logger.server.ts'
import { getRedis } from '~/utils/redis.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import { readRows } from '~/utils/sql.server.ts'
import { cookieSecrets, getEnv } from '~/utils/env.server.ts'
import type { CurrentUser } from '~/types/current-user.ts'

// A signed cookie carries only the id of a Session row in Postgres; logging out deletes the row,
// so a stolen cookie dies with it. `__Host-` in production pins it to this origin over HTTPS.

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000

function makeSessionCookie(secrets: string[]) {
  const env = getEnv()
  return createCookie(env.NODE_ENV === 'production' ? '__Host-session' : 'session', {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: env.NODE_ENV === 'production',
    secrets,
    maxAge: SESSION_TTL_MS / 1000,
  })
}

let cookie: ReturnType<typeof createCookie> | undefined
/** Signs with SESSION_SECRET; reads cookies signed with it or with SESSION_SECRET_PREVIOUS. */
export function sessionCookie() {
  cookie ??= makeSessionCookie(cookieSecrets(getEnv()))
  return cookie
}

let currentOnly: ReturnType<typeof createCookie> | undefined
/**
 * While SESSION_SECRET_PREVIOUS is set: the Set-Cookie value that signs the session cookie of
 * this Cookie header again with the current secret, when it was signed with a previous one;
 * otherwise null. server/app.ts adds it to the answer, so a visitor's cookie no longer needs
 * the previous secret after their next request (docs/operations.md, "Rotate SESSION_SECRET").
 */
export async function renewedSessionCookie(header: string | null | undefined) {
  const env = getEnv()
  if (!header || env.SESSION_SECRET_PREVIOUS.length === 0) return null
  const sessionId = await sessionIdFromCookieHeader(header)
  if (!sessionId) return null
  currentOnly ??= makeSessionCookie([env.SESSION_SECRET])
  if ((await currentOnly.parse(header)) === sessionId) return null
  return sessionCookie().serialize(sessionId)
}

export async function getSessionId(request: Request): Promise<string | null> {
  return sessionIdFromCookieHeader(request.headers.get('Cookie'))
}

// Checking a cookie's signature is a pure function of the Cookie header (the secrets do not
// change while the process runs), so the outcome is kept per header: the bid calls send the
// same header again and again. Bounded by bytes (the headers kept and their session ids, about
// 16 MiB) and least recently used first out; a header longer than any of ours is not kept.
const KEPT_HEADER_BYTES = 16 * 1024 * 1024
const LONGEST_KEPT_HEADER = 4 * 1024
const verifiedHeaders = new LRUCache<string, { sessionId: string | null }>({
  maxSize: KEPT_HEADER_BYTES,
  sizeCalculation: (value, header) => 2 * (header.length + (value.sessionId?.length ?? 0)) + 64,
})

/** How many bytes the kept Cookie headers take (for the tests of their bound). */
export const keptCookieHeaderBytes = () => verifiedHeaders.calculatedSize

export async function sessionIdFromCookieHeader(header: string | null | undefined) {
  if (!header) return null
  const known = verifiedHeaders.get(header)
  if (known) return known.sessionId
  const value: unknown = await sessionCookie().parse(header)
  const sessionId = typeof value === 'string' && value.length > 0 ? value : null
  if (header.length <= LONGEST_KEPT_HEADER) verifiedHeaders.set(header, { sessionId })
  return sessionId
}

/**
 * The session (its id and user) of a raw Cookie header, read from Postgres: the real-time
 * handshake has no Request, and its socket joins the session's and the user's rooms.
 */
export async function sessionFromCookieHeader(
  header: string | null | undefined,
): Promise<{ id: string; userId: string } | null> {
  const sessionId = await sessionIdFromCookieHeader(header)
  if (!sessionId) return null
  const session = await getPrisma().session.findUnique({
    where: { id: sessionId },
    select: { userId: true, expiresAt: true },
  })
  return session && session.expiresAt.getTime() > Date.now()
    ? { id: sessionId, userId: session.userId }
    : null
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
const localSessions = new LRUCache<string, { userId: string }>({ max: 50_000 })

function keepLocally(sessionId: string, userId: string, expires: number) {
  const ttl = Math.min(expires - Date.now(), LOCAL_SESSION_MS)
  if (ttl > 0) localSessions.set(sessionId, { userId }, { ttl })
}
const sessionCacheKey = (sessionId: string) => keysOf(getEnv().REDIS_PREFIX).session(sessionId)

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
  if (local) {
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

/** Thrown when ended sessions could not be marked ended in Redis: the caller must say so. */
export class SessionsNotForgotten extends Error {
  constructor(cause: unknown) {
    super('ended sessions could not be marked ended in the cache', { cause })
    this.name = 'SessionsNotForgotten'
  }
}

const FORGET_ATTEMPTS = 3
const FORGET_PAUSE_MS = 200

/**
 * Ends the cached user ids of sessions that are ending (logout, a new login replacing one,
 * logging out everywhere, the account deleted), before their rows are deleted. Fails closed: an
 * entry already in Redis would otherwise keep a session working for up to SESSION_CACHE_MS, so
 * the "ended" marks are tried a few times and, if Redis still refuses them, SessionsNotForgotten
 * is thrown and the caller tells the person the logout did not happen (decision 020). Trying
 * again is safe.
 */
export async function forgetSessions(sessionIds: readonly string[]) {
  for (const id of sessionIds) localSessions.delete(id)
  if (sessionIds.length === 0) return
  const redis = getRedis()
  for (let attempt = 1; ; attempt++) {
    try {
      await Promise.all(
        sessionIds.map((id) => redis.set(sessionCacheKey(id), ENDED, 'PX', SESSION_CACHE_MS)),
      )
      return
    } catch (error) {
      if (attempt >= FORGET_ATTEMPTS) {
        log.warn('ended sessions could not be marked ended in the cache', {
          error: String(error),
          sessions: sessionIds.length,
        })
        throw new SessionsNotForgotten(error)
      }
      await new Promise((resolve) => setTimeout(resolve, FORGET_PAUSE_MS * attempt))
    }
  }
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
