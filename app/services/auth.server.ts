import { randomBytes } from 'node:crypto'
import { Authenticator } from 'remix-auth'
import { FormStrategy } from 'remix-auth-form'
import { recordIp, verifyLogin } from '~/models/user.server.ts'
import { rememberLanguage } from '~/models/alert-choices.server.ts'
import { forgetDevices } from '~/models/push-subscription.server.ts'
import { getLanguage } from '~/i18n/i18next.server.ts'
import type { Engine } from '../../engine/index.ts'
import {
  forgetSessions,
  getSessionId,
  SESSION_TTL_MS,
  SessionsNotForgotten,
  sessionCookie,
} from '~/services/session.server.ts'
import { apiError, json, translator } from '~/utils/api.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import { DomainError } from '~/utils/domain-error.ts'
import { loginSchema } from '~/validation/user.ts'

// remix-auth's form strategy checks the credentials; the session itself is a Postgres row whose
// id travels in a signed cookie (services/session.server.ts). Who may go on is checked in
// services/guards.server.ts.

/** A login or password that does not match an account: 401 "invalid credentials". */
const invalidCredentials = () => new DomainError(401, 'auth.invalidCredentials')

export const authenticator = new Authenticator<string>()
authenticator.use(
  new FormStrategy(async ({ form }) => {
    const parsed = loginSchema.safeParse({
      username: form.get('username'),
      password: form.get('password'),
    })
    if (!parsed.success) throw invalidCredentials()
    const userId = await verifyLogin(parsed.data.username, parsed.data.password)
    if (!userId) throw invalidCredentials()
    return userId
  }),
  'form',
)

/**
 * Starts a session for the user: always a new id (no session fixation), the old one, if any,
 * deleted. Returns the Set-Cookie header value.
 */
export async function createSession(request: Request, userId: string, clientIp: string) {
  const previous = await getSessionId(request)
  const prisma = getPrisma()
  const id = randomBytes(32).toString('base64url')
  // The replaced session's cached user id ends as at a logout (endSessions), before anything
  // changes; its sockets, opened by this same browser, are left open. This browser's push
  // subscription goes with the replaced session (someone else signs in on a shared phone), or
  // moves to the new one when the same person signs in again.
  if (previous) await forgetSessions([previous])
  await prisma.$transaction([
    prisma.session.create({
      data: {
        id,
        userId,
        expiresAt: new Date(Date.now() + SESSION_TTL_MS),
        ipAddress: clientIp || null,
        userAgent: request.headers.get('user-agent')?.slice(0, 500) ?? null,
      },
    }),
    ...(previous
      ? [
          prisma.pushSubscription.updateMany({
            where: { sessionId: previous, userId },
            data: { sessionId: id },
          }),
          prisma.session.deleteMany({ where: { id: previous } }),
        ]
      : []),
  ])
  await recordIp(userId, clientIp)
  // Alerts are written in the language the person last used on the site (docs/rules.md#alerts).
  await rememberLanguage(userId, await getLanguage(request))
  return sessionCookie().serialize(id)
}

/**
 * Ends one session (`sessionId`: a logout) or every session of an account (`userId`: logging
 * out everywhere, the account about to be deleted). The cached user ids are marked ended
 * first (forgetSessions): if Redis refuses, it throws SessionsNotForgotten before anything
 * else changed, so the person is told they are still signed in and may try again (decision
 * 020). Then the rows go, and with a session's row its device's Web Push subscription
 * (docs/push.md; every device of the account when all end), and the sessions' open sockets are
 * closed on every instance (the engine's `signedOut` event, server/realtime.ts).
 */
export async function endSessions(
  engine: Engine,
  ended: { sessionId: string } | { userId: string },
) {
  const prisma = getPrisma()
  if ('sessionId' in ended) {
    await forgetSessions([ended.sessionId])
    await prisma.session.deleteMany({ where: { id: ended.sessionId } })
  } else {
    const before = await prisma.session.findMany({
      where: { userId: ended.userId },
      select: { id: true },
    })
    const marked = new Set(before.map((session) => session.id))
    await forgetSessions([...marked])
    const deleted = await prisma.$queryRaw<Array<{ id: string }>>`
      DELETE FROM "Session" WHERE "userId" = ${ended.userId} RETURNING "id"`
    // A login between the read and the delete: its session is marked ended too.
    await forgetSessions(deleted.map((row) => row.id).filter((id) => !marked.has(id)))
    // The sessions' devices went with their rows; these are the ones subscribed before
    // subscriptions kept their session.
    await forgetDevices(ended.userId)
  }
  engine.emit('signedOut', ended)
}

/** The Set-Cookie value that removes the session cookie from the browser. */
export function clearedSessionCookie() {
  return sessionCookie().serialize('', { maxAge: 0 })
}

/** Logout: ends the request's session (see endSessions); returns the Set-Cookie value. */
export async function destroySession(request: Request, engine: Engine) {
  const sessionId = await getSessionId(request)
  if (sessionId) await endSessions(engine, { sessionId })
  return clearedSessionCookie()
}

/** "Log out everywhere": ends every session of the user, this one included. */
export async function destroyAllSessions(userId: string, engine: Engine) {
  await endSessions(engine, { userId })
  return clearedSessionCookie()
}

/**
 * The JSON API's answer to a logout (`end`, one of the two above): `{"ok": true}` with the cookie
 * cleared, or 503 `{"error"}` when the logout was refused and the session still works.
 */
export async function logoutAnswer(request: Request, end: () => Promise<string>) {
  try {
    return json({ ok: true }, { headers: { 'Set-Cookie': await end() } })
  } catch (error) {
    if (!(error instanceof SessionsNotForgotten)) throw error
    return apiError(503, (await translator(request))('auth.logoutRefused'), {
      headers: { 'Retry-After': '5' },
    })
  }
}
