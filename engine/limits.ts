import type { EngineContext } from './context.ts'
import { defineScript } from './lua-runner.ts'

// The limits a bidder sets (docs/rules.md#limits-a-bidder-sets): a daily bid limit and a
// self-exclusion. Lowering a limit or starting an exclusion applies at once; raising or ending
// one waits 24 hours, as a pending change that then applies whole. The bid scripts enforce them
// (engine/lua/shared/rules.lua) from the copy kept here in Redis.

export const LIMIT_DELAY_MS = 24 * 60 * 60 * 1000
export const DAY_MS = 24 * 60 * 60 * 1000
/** Bishkek is UTC+6 all year: a day's bids are counted from its midnight. */
const BISHKEK_MS = 6 * 60 * 60 * 1000

/** A pair of limits: bids a day (null none) and no bids until (ms, null none). */
export type LimitPair = { dailyBidLimit: number | null; selfExcludedUntil: number | null }

export type Limits = LimitPair & {
  /** The change that waits its 24 hours, whole, and when it applies. */
  pending: (LimitPair & { appliesAt: number }) | null
  /** Raised by every change: Redis keeps the newest copy. */
  version: number
}

export const noLimits: Limits = {
  dailyBidLimit: null,
  selfExcludedUntil: null,
  pending: null,
  version: 0,
}

/** The limits in force at `now`: a pending change whose time has come has applied. */
export function limitsAt(limits: Limits, now: number): Limits {
  const { pending } = limits
  if (!pending || now < pending.appliesAt) return limits
  return {
    dailyBidLimit: pending.dailyBidLimit,
    selfExcludedUntil: pending.selfExcludedUntil,
    pending: null,
    version: limits.version,
  }
}

/** A change a person asks for: a limit (null to remove it), an exclusion in days (0 to end it). */
export type LimitsChange = { dailyBidLimit?: number | null; selfExcludeDays?: number }

/**
 * The limits after a change asked for at `now`. Each of the two applies at once when it is
 * stricter (a lower or new limit, an exclusion started or made longer); else the whole wished
 * state waits 24 hours, keeping the time of a pending change it does not alter.
 */
export function changeLimits(current: Limits, change: LimitsChange, now: number): Limits {
  const inForce = limitsAt(current, now)
  const before = inForce.pending ?? inForce
  const wished: LimitPair = {
    dailyBidLimit: change.dailyBidLimit === undefined ? before.dailyBidLimit : change.dailyBidLimit,
    selfExcludedUntil:
      change.selfExcludeDays === undefined
        ? before.selfExcludedUntil
        : change.selfExcludeDays === 0
          ? null
          : now + change.selfExcludeDays * DAY_MS,
  }
  const excluded = inForce.selfExcludedUntil !== null && inForce.selfExcludedUntil > now
  const limitNow =
    wished.dailyBidLimit !== null &&
    (inForce.dailyBidLimit === null || wished.dailyBidLimit <= inForce.dailyBidLimit)
  const exclusionNow =
    wished.selfExcludedUntil !== null &&
    (!excluded || wished.selfExcludedUntil >= inForce.selfExcludedUntil!)
  const applied: LimitPair = {
    dailyBidLimit: limitNow ? wished.dailyBidLimit : inForce.dailyBidLimit,
    selfExcludedUntil: exclusionNow
      ? wished.selfExcludedUntil
      : excluded
        ? inForce.selfExcludedUntil
        : null,
  }
  const waits =
    applied.dailyBidLimit !== wished.dailyBidLimit ||
    applied.selfExcludedUntil !== wished.selfExcludedUntil
  const old = inForce.pending
  const same =
    old !== null &&
    old.dailyBidLimit === wished.dailyBidLimit &&
    old.selfExcludedUntil === wished.selfExcludedUntil
  return {
    ...applied,
    pending: waits ? { ...wished, appliesAt: same ? old.appliesAt : now + LIMIT_DELAY_MS } : null,
    version: current.version + 1,
  }
}

/** Bishkek's day of `now`, as the bid scripts count it (days since 1970-01-01). */
export function bishkekDay(now: number): number {
  return Math.floor((now + BISHKEK_MS) / DAY_MS)
}

/** When Bishkek's day of `now` began. */
export function bishkekDayStart(now: number): number {
  return bishkekDay(now) * DAY_MS - BISHKEK_MS
}

const word = (value: number | null) => (value === null ? '-' : String(value))

/** The copy the bid scripts read: "version limit until pendingAt pendingLimit pendingUntil". */
export function encodeLimits(limits: Limits): string {
  const { pending } = limits
  return [
    limits.version,
    word(limits.dailyBidLimit),
    word(limits.selfExcludedUntil),
    word(pending?.appliesAt ?? null),
    word(pending?.dailyBidLimit ?? null),
    word(pending?.selfExcludedUntil ?? null),
  ].join(' ')
}

const setLimitsScript = defineScript({
  name: 'set-limits',
  shared: ['limits'],
  keys: ['user'],
  args: ['limits'],
  parse: (raw) => raw === 1,
})

/** Puts a person's changed limits into Redis, where the bid scripts enforce them at once. */
export async function setLimits(ctx: EngineContext, userId: string, limits: Limits) {
  await setLimitsScript.run(
    ctx.redis,
    { user: ctx.keys.user(userId) },
    { limits: encodeLimits(limits) },
  )
  await ctx.replication.confirm('limits')
}

/** How many bids and prebids the person placed today (Bishkek's day), as the bid scripts count. */
export async function bidsToday(ctx: EngineContext, userId: string, now = Date.now()) {
  const [day, count] = await ctx.redis.hmget(ctx.keys.user(userId), 'dd', 'dc')
  return day === String(bishkekDay(now)) ? Number(count) : 0
}
