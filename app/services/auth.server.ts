import { randomBytes } from 'node:crypto'
import { redirect } from '@remix-run/node'
import { Authenticator } from 'remix-auth'
import { FormStrategy } from 'remix-auth-form'
import { recordIp, verifyLogin } from '~/models/user.server.ts'
import {
  forgetSession,
  getOptionalUser,
  getSessionId,
  SESSION_TTL_MS,
  sessionCookie,
  type CurrentUser,
} from '~/services/session.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import { loginSchema } from '~/validation/user.ts'

// remix-auth's form strategy checks the credentials; the session itself is a Postgres row whose
// id travels in a signed cookie (services/session.server.ts).

export class InvalidCredentials extends Error {}

export const authenticator = new Authenticator<string>()
authenticator.use(
  new FormStrategy(async ({ form }) => {
    const parsed = loginSchema.safeParse({
      username: form.get('username'),
      password: form.get('password'),
    })
    if (!parsed.success) throw new InvalidCredentials()
    const userId = await verifyLogin(parsed.data.username, parsed.data.password)
    if (!userId) throw new InvalidCredentials()
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
  await prisma.$transaction([
    ...(previous ? [prisma.session.deleteMany({ where: { id: previous } })] : []),
    prisma.session.create({
      data: {
        id,
        userId,
        expiresAt: new Date(Date.now() + SESSION_TTL_MS),
        ipAddress: clientIp || null,
        userAgent: request.headers.get('user-agent')?.slice(0, 500) ?? null,
      },
    }),
  ])
  if (previous) await forgetSession(previous)
  await recordIp(userId, clientIp)
  return sessionCookie().serialize(id)
}

export async function destroySession(request: Request) {
  const sessionId = await getSessionId(request)
  if (sessionId) {
    await getPrisma().session.deleteMany({ where: { id: sessionId } })
    await forgetSession(sessionId)
  }
  return sessionCookie().serialize('', { maxAge: 0 })
}

/** Pages: the signed-in user, or a redirect to /login that comes back here. */
export async function requireUser(request: Request): Promise<CurrentUser> {
  const user = await getOptionalUser(request)
  if (user) return user
  const url = new URL(request.url)
  throw redirect(`/login?redirectTo=${encodeURIComponent(url.pathname + url.search)}`)
}
