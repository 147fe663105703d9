import { getRedis } from '~/services/redis.server.ts'
import { getEnv } from '~/utils/env.server.ts'

// Fixed-window counters in Redis, shared by every instance. Used for login, registration and
// the availability checks (per IP and per username).

export type RateLimit = { limit: number; windowSeconds: number }
/** A step refused by a limit: pages and the API both answer 429, after `seconds`. */
export type RateLimited = { ok: false; status: 429; seconds: number }

export const limits = {
  loginPerIp: { limit: 20, windowSeconds: 60 },
  loginPerUsername: { limit: 10, windowSeconds: 300 },
  // Generous per IP: mobile carriers put many people behind one address.
  registerPerIp: { limit: 30, windowSeconds: 600 },
  validatePerIp: { limit: 120, windowSeconds: 60 },
} satisfies Record<string, RateLimit>

function prefix() {
  return `{${getEnv().REDIS_PREFIX}}:rl:`
}

/** Counts one hit; returns how many seconds to wait when over the limit, else 0. */
export async function hit(
  bucket: string,
  key: string,
  { limit: base, windowSeconds }: RateLimit,
): Promise<number> {
  const redis = getRedis()
  const limit = Math.max(1, Math.round(base * getEnv().RATE_LIMIT_SCALE))
  const window = Math.floor(Date.now() / 1000 / windowSeconds)
  const counter = `${prefix()}${bucket}:${key.toLowerCase()}:${window}`
  const [[, count]] = (await redis.multi().incr(counter).expire(counter, windowSeconds).exec()) as [
    [null, number],
    unknown,
  ]
  if (count <= limit) return 0
  return windowSeconds - (Math.floor(Date.now() / 1000) % windowSeconds)
}

/** Forgets a key's hits (a successful login clears its username's failures). */
export async function reset(bucket: string, key: string, { windowSeconds }: RateLimit) {
  const window = Math.floor(Date.now() / 1000 / windowSeconds)
  await getRedis().del(`${prefix()}${bucket}:${key.toLowerCase()}:${window}`)
}
