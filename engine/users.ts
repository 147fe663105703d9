import type { EngineContext } from './context.ts'
import { readUser } from './load.ts'
import { defineScript, num, type Refused } from './lua-runner.ts'

// The engine's users: a person's balance and name in Redis, loaded on first use, and the
// removal of a deleted account.

/** Refused because the user's balance is not in Redis yet: the caller loads it and asks again. */
export type NotLoaded = 'user_not_loaded'

/**
 * How long a deleted account's marker stays in Redis: far longer than its Postgres row takes
 * to go, so a copy of that row read just before cannot bring the balance back.
 */
const USER_GONE_MS = 60 * 60 * 1000

const loadUserScript = defineScript({
  name: 'load-user',
  keys: ['user'],
  args: ['balance', 'name'],
  /** False for an account being deleted. */
  parse: (raw) => (raw as string[])[0] !== 'gone',
})

const removeUserScript = defineScript({
  name: 'remove-user',
  keys: ['user', 'upcoming', 'autoBidIndex'],
  args: ['base', 'userId', 'ms'],
  parse: (raw) => {
    const [count, ...rest] = raw as string[]
    const prebids = new Map<string, number>()
    const pairs = 2 * num(count)
    for (let i = 0; i < pairs; i += 2) prebids.set(rest[i]!, num(rest[i + 1]))
    return { prebids, autoBids: rest.slice(pairs) }
  },
})

/** The user's bid balance (hot in Redis; loaded from Postgres on first use). */
export async function getBalance(ctx: EngineContext, userId: string): Promise<number | null> {
  const hot = await ctx.redis.hget(ctx.keys.user(userId), 'bal')
  if (hot !== null) return Number(hot)
  return (await loadUser(ctx, userId))
    ? Number(await ctx.redis.hget(ctx.keys.user(userId), 'bal'))
    : null
}

/**
 * Puts the user's balance and name into Redis unless already there. False: no such user (or
 * an account being deleted, see removeUser).
 */
export async function loadUser(ctx: EngineContext, userId: string): Promise<boolean> {
  const user = await readUser(ctx.prisma, userId)
  if (!user) return false
  return loadUserScript.run(
    ctx.redis,
    { user: ctx.keys.user(userId) },
    { balance: user.balance, name: user.name },
  )
}

/**
 * Takes a deleted account out of the engine at once, in one atomic step: its balance, its
 * prebids on upcoming auctions (refunded to no one, and no longer counted) and its
 * auto-bidders' budgets. From then on its bids, prebids and credits answer user_not_found.
 * Called before its Postgres row goes (app/models/admin-users.server.ts).
 */
export async function removeUser(
  ctx: EngineContext,
  userId: string,
): Promise<{ prebids: Map<string, number>; autoBids: string[] }> {
  const k = ctx.keys
  const removed = await removeUserScript.run(
    ctx.redis,
    { user: k.user(userId), upcoming: k.upcoming, autoBidIndex: k.autoBidIndex },
    { base: k.base, userId, ms: USER_GONE_MS },
  )
  for (const [auctionId, left] of removed.prebids)
    ctx.events.emit('prebid', { auctionId, userId, prebids: left })
  for (const auctionId of removed.autoBids)
    ctx.events.emit('autobid', { auctionId, userId, status: null })
  return removed
}

/** Keeps the name shown in bid lists in step with a renamed user. */
export async function refreshUserName(ctx: EngineContext, userId: string, username: string) {
  const key = ctx.keys.user(userId)
  if (await ctx.redis.exists(key)) await ctx.redis.hset(key, 'name', username)
}

/** Runs a script that needs the user's balance in Redis, loading it once when missing. */
export async function withUser<R extends { status: string }>(
  ctx: EngineContext,
  userId: string,
  call: () => Promise<R>,
): Promise<R | 'user_not_found'> {
  const reply = await call()
  if (
    reply.status !== 'refused' ||
    (reply as unknown as Refused<string>).reason !== 'user_not_loaded'
  )
    return reply
  if (!(await loadUser(ctx, userId))) return 'user_not_found'
  return call()
}
