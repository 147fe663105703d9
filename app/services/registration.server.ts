import type { Engine } from '../../engine/index.ts'
import { createUser, grantOwedFreeBids, unfinishedRegistration } from '~/models/user.server.ts'
import { createSession } from '~/services/auth.server.ts'
import {
  freeBidsPerAddress,
  hitFromAddress,
  limits,
  type RateLimited,
} from '~/services/rate-limit.server.ts'
import { DomainError } from '~/utils/domain-error.ts'
import type { RegisterInput } from '~/validation/user.ts'

// Registration, one set of steps for the /login page's register tab and POST /api/auth/register.
// Each of them parses its input with its schema from ~/validation/user.ts first (the page's form
// also carries the password confirmation) and answers in its own way with the status given here.

export type RegistrationResult =
  | {
      ok: true
      userId: string
      cookie: string
      /** The free bids wait for a verified phone (the setting, or the address's daily cap). */
      freeBidsOnPhone: boolean
    }
  | RateLimited
  /** A taken username or email (takenRefusal): its field and text key. */
  | { ok: false; status: 409; field: string; message: string }

/**
 * Whether a new account from this address gets its free bids now: at most
 * `freeBidsPerAddress()` a day per address (an IPv6 /64 is one), counted only for accounts that
 * get them (docs/decisions/075-one-client-cannot-hurt-everyone.md).
 */
async function freeBidsAllowedFrom(clientIp: string) {
  return (await hitFromAddress('free-bids-ip', clientIp, freeBidsPerAddress())) === 0
}

/**
 * Counts the attempt against the per-address limit (an IPv6 /64 is one address), creates the
 * account with its free bids (createUser: unique username and email, hashed password; past the
 * address's daily allowance they wait for a verified phone) and starts its session.
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
  let freeBidsOnPhone: boolean
  try {
    const { username, email, password } = input
    ;({ id: userId, freeBidsOnPhone } = await createUser(engine, {
      username,
      email,
      password,
      ipAddress: clientIp || null,
      freeBidsNow: () => freeBidsAllowedFrom(clientIp),
    }))
  } catch (error) {
    if (!(error instanceof DomainError) || !error.field) throw error
    // The same person sending the form again after a registration that failed on the way
    // finishes that one (docs/decisions/043-free-bids-owed.md).
    const unfinished = await unfinishedRegistration(input)
    if (unfinished) {
      await grantOwedFreeBids(engine, unfinished)
      return {
        ok: true,
        userId: unfinished,
        cookie: await createSession(request, unfinished, clientIp),
        freeBidsOnPhone: false,
      }
    }
    return {
      ok: false,
      status: 409,
      field: error.field,
      message: error.key,
    }
  }
  return {
    ok: true,
    userId,
    cookie: await createSession(request, userId, clientIp),
    freeBidsOnPhone,
  }
}
