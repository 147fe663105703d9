import type { EngineContext } from './context.ts'
import { encodeLimits } from './limits.ts'
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
  shared: ['now', 'wins', 'limits'],
  keys: ['user'],
  args: [
    'balance',
    'name',
    'won',
    'phone',
    'limits',
    'day',
    'dayCount',
    'base',
    'userId',
    'wins',
    'phoneWins',
  ],
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
 * Puts the user's balance into Redis unless already there, and brings what the fair-play rules
 * and their own limits need up to date (engine/lua/load-user.lua). False: no such user (or an
 * account being deleted, see removeUser). Called again when their verified phone changes.
 */
export async function loadUser(ctx: EngineContext, userId: string): Promise<boolean> {
  const user = await readUser(ctx.prisma, userId)
  if (!user) return false
  return loadUserScript.run(
    ctx.redis,
    { user: ctx.keys.user(userId) },
    {
      balance: user.balance,
      name: user.name,
      won: user.won ? '1' : '0',
      phone: user.phone ?? '',
      limits: user.limits.version > 0 ? encodeLimits(user.limits) : '',
      day: user.day,
      dayCount: user.dayCount,
      base: ctx.keys.base,
      userId,
      wins: JSON.stringify(user.wins),
      phoneWins: JSON.stringify(user.phoneWins),
    },
  )
}

/**
 * Puts the win limit's settings where the bid scripts read them (engine/lua/shared/rules.lua):
 * at start, when an admin saves the settings, and when a script finds them missing.
 */
export async function loadRules(ctx: EngineContext) {
  const row = await ctx.prisma.settings.findUnique({
    where: { id: 1 },
    select: { winLimit: true, freeBidsNeedPhone: true },
  })
  await ctx.redis.hset(ctx.keys.rules, {
    wl: row?.winLimit ?? 0,
    wp: row?.freeBidsNeedPhone ? '1' : '0',
  })
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

/** Refused because the win limit's settings are not in Redis: the caller loads them, asks again. */
export type RulesNotLoaded = 'rules_not_loaded'

/**
 * Runs a script that needs the user's balance in Redis (and, for a bid, the win limit's settings),
 * loading what it finds missing and asking again.
 */
export async function withUser<R extends { status: string }>(
  ctx: EngineContext,
  userId: string,
  call: () => Promise<R>,
): Promise<R | 'user_not_found'> {
  let reply = await call()
  for (let tries = 0; tries < 2 && reply.status === 'refused'; tries++) {
    const { reason } = reply as unknown as Refused<string>
    if (reason === 'user_not_loaded') {
      if (!(await loadUser(ctx, userId))) return 'user_not_found'
    } else if (reason === 'rules_not_loaded') await loadRules(ctx)
    else break
    reply = await call()
  }
  return reply
}
