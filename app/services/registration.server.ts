import type { Engine } from '../../engine/index.ts'
import {
  createUser,
  DuplicateError,
  grantOwedFreeBids,
  unfinishedRegistration,
} from '~/models/user.server.ts'
import { createSession } from '~/services/auth.server.ts'
import { hitFromAddress, limits, type RateLimited } from '~/services/rate-limit.server.ts'
import type { RegisterInput } from '~/validation/user.ts'

// Registration, one set of steps for the /login page's register tab and POST /api/auth/register.
// Each of them parses its input with its schema from ~/validation/user.ts first (the page's form
// also carries the password confirmation) and answers in its own way with the status given here.

export type RegistrationResult =
  | { ok: true; userId: string; cookie: string }
  | RateLimited
  | {
      ok: false
      status: 409
      field: DuplicateError['field']
      message: `validation.${DuplicateError['field']}Taken`
    }

/**
 * Counts the attempt against the per-address limit (an IPv6 /64 is one address), creates the account with its free bids
 * (createUser: unique username and email, hashed password) and starts its session.
 * `cookie` is the Set-Cookie value.
 */
export async function register(
  request: Request,
  { engine, clientIp }: { engine: Engine; clientIp: string },
  input: RegisterInput,
): Promise<RegistrationResult> {
  const seconds = await hitFromAddress('register-ip', clientIp, limits.registerPerIp)
  if (seconds) return { ok: false, status: 429, seconds }
  let userId: string
  try {
    const { username, email, password } = input
    userId = (await createUser(engine, { username, email, password, ipAddress: clientIp || null }))
      .id
  } catch (error) {
    if (!(error instanceof DuplicateError)) throw error
    // The same person sending the form again after a registration that failed on the way
    // finishes that one (docs/decisions/043-free-bids-owed.md).
    const unfinished = await unfinishedRegistration(input)
    if (unfinished) {
      await grantOwedFreeBids(engine, unfinished)
      return {
        ok: true,
        userId: unfinished,
        cookie: await createSession(request, unfinished, clientIp),
      }
    }
    return {
      ok: false,
      status: 409,
      field: error.field,
      message: `validation.${error.field}Taken`,
    }
  }
  return { ok: true, userId, cookie: await createSession(request, userId, clientIp) }
}
