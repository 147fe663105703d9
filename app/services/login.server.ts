import type { Engine } from '../../engine/index.ts'
import { grantOwedFreeBids } from '~/models/user.server.ts'
import { authenticator, createSession } from '~/services/auth.server.ts'
import {
  loginFailed,
  loginSucceeded,
  startLoginAttempt,
  type RateLimited,
} from '~/services/rate-limit.server.ts'
import { DomainError } from '~/utils/domain-error.ts'
import type { LoginInput } from '~/validation/user.ts'

// Logging in, one set of steps for the /login page and POST /api/auth/login. Each of them
// parses its input with loginSchema (~/validation/user.ts) first and answers in its own way
// (the page with Conform's reply or a redirect, the API with JSON), with the status given here.

export type LoginResult =
  | { ok: true; userId: string; cookie: string }
  | RateLimited
  /** Invalid credentials: the refusal's text key. */
  | { ok: false; status: 401; message: string }

/**
 * Counts the attempt (rate-limit.server.ts: the waits after failures of this username from this
 * address, the attempts of the address), checks the password and starts a new session; a success
 * clears the username's failures from this address and gives the free bids a registration could
 * not give (docs/decisions/043-free-bids-owed.md). `cookie` is the Set-Cookie value.
 */
export async function logIn(
  request: Request,
  { engine, clientIp }: { engine: Engine; clientIp: string },
  credentials: LoginInput,
): Promise<LoginResult> {
  const seconds = await startLoginAttempt(credentials.username, clientIp)
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
    if (!(error instanceof DomainError)) throw error
    await loginFailed(credentials.username)
    return { ok: false, status: 401, message: error.key }
  }
  await loginSucceeded(credentials.username, clientIp)
  await grantOwedFreeBids(engine, userId)
  return { ok: true, userId, cookie: await createSession(request, userId, clientIp) }
}
