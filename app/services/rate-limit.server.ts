import { isIPv6 } from 'node:net'
import { keysOf, loginAttemptScript, rateLimitScript } from '../../engine/index.ts'
import { getRedis } from '~/utils/redis.server.ts'
import { getEnv } from '~/utils/env.server.ts'

// Limits kept in Redis, shared by every instance: sliding windows (at most N hits in any span of
// the window's length, engine/lua/shared/sliding-window.lua) for registration, the availability
// checks and login attempts per address, and the growing waits after failed logins
// (docs/rules.md#login-and-sessions).

export type RateLimit = { limit: number; windowSeconds: number }
/** A step refused by a limit: pages and the API both answer 429, after `seconds`. */
export type RateLimited = { ok: false; status: 429; seconds: number }

export const limits = {
  /** Login attempts from one address, whatever the usernames. */
  loginPerIp: { limit: 20, windowSeconds: 60 },
  /** Failed logins of one username from all addresses; past it, every address waits a little. */
  loginPerUsername: { limit: 20, windowSeconds: 300 },
  // Generous per IP: mobile carriers put many people behind one address.
  registerPerIp: { limit: 30, windowSeconds: 600 },
  validatePerIp: { limit: 120, windowSeconds: 60 },
} satisfies Record<string, RateLimit>

/**
 * Registrations from one address given their free bids at once in any 24 hours
 * (FREE_BIDS_PER_ADDRESS, 20 unless set); past it an account's free bids wait for a verified phone
 * (docs/rules.md#registration).
 */
export const freeBidsPerAddress = (): RateLimit => ({
  limit: getEnv().FREE_BIDS_PER_ADDRESS,
  windowSeconds: 86_400,
})

/**
 * The waits after failed logins. They slow guessing down and never lock an account: they grow
 * for one username from one address only, and a success there clears them.
 */
export const loginBackoff = {
  /** Failures of one username from one address answered without a wait. */
  freeFailures: 5,
  /** The wait after the next failure, doubled after each further one up to `maxMs`. */
  firstMs: 1_000,
  maxMs: 30_000,
  /** The wait after any failure while the username is past `limits.loginPerUsername`. */
  busyUsernameMs: 2_000,
  /** A username's failures from one address are forgotten this long after its last attempt. */
  forgetSeconds: 900,
}

function limitKey(name: string) {
  return keysOf(getEnv().REDIS_PREFIX).rateLimit(name)
}

/** A limit's count with RATE_LIMIT_SCALE applied, at least 1. */
export function scaled(count: number) {
  return Math.max(1, Math.round(count * getEnv().RATE_LIMIT_SCALE))
}

const toSeconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000))

/** Counts one hit; returns how many seconds to wait when the window is full, else 0. */
export async function hit(
  bucket: string,
  key: string,
  { limit, windowSeconds }: RateLimit,
): Promise<number> {
  const ms = await rateLimitScript.run(
    getRedis(),
    { hits: limitKey(`${bucket}:${key.toLowerCase()}`) },
    { limit: scaled(limit), windowMs: windowSeconds * 1000 },
  )
  return ms > 0 ? toSeconds(ms) : 0
}

/**
 * Counts one hit of a client address against a per-address limit. The address is counted as
 * clientKey() gives it, so the many addresses of one IPv6 /64 share one allowance (otherwise each
 * of them would be a new person: a new account with its free bids per address).
 */
export function hitFromAddress(bucket: string, clientIp: string, limit: RateLimit) {
  return hit(bucket, clientKey(clientIp), limit)
}

/**
 * The address the limits count for a client: an IPv4 address as it is (also when written as
 * IPv4-mapped IPv6), an IPv6 address as its /64 network, which one subscriber usually holds whole.
 */
export function clientKey(ip: string): string {
  const address = ip.replace(/%.*$/, '')
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address)
  if (mapped) return mapped[1]!
  if (!isIPv6(address)) return address
  // An embedded IPv4 address takes the last two groups, never part of the network.
  const groups = (part: string) =>
    part ? part.split(':').flatMap((group) => (group.includes('.') ? ['0', '0'] : [group])) : []
  const [head = '', tail] = address.split('::')
  const front = groups(head)
  const back = tail === undefined ? [] : groups(tail)
  const all = [...front, ...Array<string>(8 - front.length - back.length).fill('0'), ...back]
  return `${all
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(':')}::/64`
}

function loginKeys(username: string, clientIp: string) {
  const user = username.trim().toLowerCase()
  // The address first: it never holds the separator in a way a username could imitate.
  const pair = `${clientKey(clientIp)}:${user}`
  return {
    user,
    wait: limitKey(`login-wait:${pair}`),
    failures: limitKey(`login-fail:${pair}`),
  }
}

/**
 * Counts a login attempt of `username` from `clientIp` before its password is checked: returns
 * the seconds to wait when this username has failed from this address too often lately or the
 * address has made too many attempts, else 0.
 */
export async function startLoginAttempt(username: string, clientIp: string): Promise<number> {
  const keys = loginKeys(username, clientIp)
  const ms = await loginAttemptScript.run(
    getRedis(),
    {
      wait: keys.wait,
      failures: keys.failures,
      addressAttempts: limitKey(`login-ip:${clientKey(clientIp).toLowerCase()}`),
      usernameFailures: usernameFailuresKey(keys.user),
    },
    {
      attemptsPerAddress: scaled(limits.loginPerIp.limit),
      addressWindowMs: limits.loginPerIp.windowSeconds * 1000,
      freeFailures: scaled(loginBackoff.freeFailures),
      firstWaitMs: loginBackoff.firstMs,
      longestWaitMs: loginBackoff.maxMs,
      forgetSeconds: loginBackoff.forgetSeconds,
      failuresPerUsername: scaled(limits.loginPerUsername.limit),
      usernameWindowMs: limits.loginPerUsername.windowSeconds * 1000,
      busyUsernameWaitMs: loginBackoff.busyUsernameMs,
    },
  )
  return ms > 0 ? toSeconds(ms) : 0
}

const usernameFailuresKey = (user: string) => limitKey(`login-user:${user}`)

/**
 * A wrong password or unknown username: counted for the username from every address. The window
 * holds one more than the limit, so that "past the limit" can be seen; failures while it is full
 * are not recorded, and each one that ages out lets one more through.
 */
export async function loginFailed(username: string) {
  await rateLimitScript.run(
    getRedis(),
    { hits: usernameFailuresKey(username.trim().toLowerCase()) },
    {
      limit: scaled(limits.loginPerUsername.limit) + 1,
      windowMs: limits.loginPerUsername.windowSeconds * 1000,
    },
  )
}

/** A success clears the username's failures and wait from this address. */
export async function loginSucceeded(username: string, clientIp: string) {
  const keys = loginKeys(username, clientIp)
  await getRedis().del(keys.wait, keys.failures)
}
