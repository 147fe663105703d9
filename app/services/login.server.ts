import { authenticator, createSession, InvalidCredentials } from '~/services/auth.server.ts'
import { hit, limits, reset, type RateLimited } from '~/services/rate-limit.server.ts'
import type { LoginInput } from '~/validation/user.ts'

// Logging in, one set of steps for the /login page and POST /api/auth/login. Each of them
// parses its input with loginSchema (~/validation/user.ts) first and answers in its own way
// (the page with Conform's reply or a redirect, the API with JSON), with the status given here.

export type LoginResult =
  | { ok: true; userId: string; cookie: string }
  | RateLimited
  | { ok: false; status: 401; message: 'auth.invalidCredentials' }

/**
 * Counts the attempt against the per-IP and per-username limits, checks the password and starts
 * a new session; a success clears the username's failures. `cookie` is the Set-Cookie value.
 */
export async function logIn(
  request: Request,
  clientIp: string,
  credentials: LoginInput,
): Promise<LoginResult> {
  const seconds =
    (await hit('login-ip', clientIp, limits.loginPerIp)) ||
    (await hit('login-user', credentials.username, limits.loginPerUsername))
  if (seconds) return { ok: false, status: 429, seconds }
  const form = new FormData()
  form.set('username', credentials.username)
  form.set('password', credentials.password)
  let userId: string
  try {
    userId = await authenticator.authenticate(
      'form',
      new Request(request.url, { method: 'POST', body: form }),
    )
  } catch (error) {
    if (error instanceof InvalidCredentials)
      return { ok: false, status: 401, message: 'auth.invalidCredentials' }
    throw error
  }
  await reset('login-user', credentials.username, limits.loginPerUsername)
  return { ok: true, userId, cookie: await createSession(request, userId, clientIp) }
}
