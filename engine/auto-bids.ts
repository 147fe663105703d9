import { BID_ARGS, BID_KEYS, bidArgs, bidKeys, emitBid, parseBid } from './bids.ts'
import type { EngineContext } from './context.ts'
import { defineScript, num, refusal } from './lua-runner.ts'
import {
  AUTO_BID_MAX,
  type AutoBidPlaceResult,
  type AutoBidRejection,
  type AutoBidRejectionOnSet,
  type AutoBidSetResult,
  type AutoBidStatus,
  type BidRejection,
} from './types.ts'
import { loadUser, withUser, type NotLoaded, type RulesNotLoaded } from './users.ts'

// The engine's auto-bidder (docs/decisions/015-auto-bidder.md): budgets reserved from the
// balance, the bids placed from them and what is left given back. The worker that decides when
// to bid is engine/auto-bid-worker.ts.

const autoBidScript = defineScript({
  name: 'auto-bid',
  shared: ['rules', 'bid'],
  keys: [...BID_KEYS, 'autoBids'],
  args: BID_ARGS,
  parse: parseBid<BidRejection | NotLoaded | RulesNotLoaded | 'no_budget'>,
})

const autoBidReserveScript = defineScript({
  name: 'auto-bid-reserve',
  shared: ['now', 'rules'],
  keys: ['auction', 'user', 'autoBids', 'autoBidIndex', 'outbox', 'bidders'],
  args: ['auctionId', 'userId', 'bids', 'base'],
  parse: (raw) => {
    const reply = raw as string[]
    return (
      refusal<AutoBidRejectionOnSet | NotLoaded | RulesNotLoaded>(reply) ?? {
        status: 'ok' as const,
        balance: num(reply[2]),
        left: num(reply[3]),
        placed: num(reply[4]),
      }
    )
  },
})

const autoBidStopScript = defineScript({
  name: 'auto-bid-stop',
  shared: ['now'],
  keys: ['user', 'autoBids', 'outbox'],
  args: ['auctionId', 'userId'],
  parse: (raw) => {
    const reply = raw as string[]
    if (reply[0] !== 'ok') return refusal<NotLoaded>(reply) ?? { status: 'none' as const }
    return { status: 'ok' as const, balance: num(reply[2]), returned: num(reply[3]) }
  },
})

const autoBidReturnScript = defineScript({
  name: 'auto-bid-return',
  shared: ['now'],
  keys: ['auction', 'autoBids', 'autoBidIndex', 'outbox'],
  args: ['auctionId', 'base', 'drop'],
  parse: (raw) => {
    const reply = raw as string[]
    if (reply[0] !== 'ok') return { status: 'not_finished' as const }
    const split = reply.indexOf('|')
    const returned: Array<{ userId: string; amount: number; balance: number }> = []
    for (let i = 1; i < split; i += 3)
      returned.push({ userId: reply[i]!, amount: num(reply[i + 1]), balance: num(reply[i + 2]) })
    return { status: 'ok' as const, returned, missing: reply.slice(split + 1) }
  },
})

/** Reserves `bids` from the balance for the user's auto-bidder on an unfinished auction. */
export async function setAutoBid(
  ctx: EngineContext,
  auctionId: string,
  userId: string,
  bids: number,
): Promise<AutoBidSetResult> {
  if (!Number.isSafeInteger(bids) || bids < 1 || bids > AUTO_BID_MAX)
    return { ok: false, reason: 'invalid_bids' }
  const k = ctx.keys
  const reply = await withUser(ctx, userId, () =>
    autoBidReserveScript.run(
      ctx.acked,
      {
        auction: k.auction(auctionId),
        user: k.user(userId),
        autoBids: k.autoBids(auctionId),
        autoBidIndex: k.autoBidIndex,
        outbox: k.outbox,
        bidders: k.bidders(auctionId),
      },
      { auctionId, userId, bids, base: k.base },
    ),
  )
  if (reply === 'user_not_found') return { ok: false, reason: 'user_not_found' }
  if (reply.status !== 'ok') return { ok: false, reason: reply.reason as AutoBidRejectionOnSet }
  const result = {
    ok: true as const,
    balance: reply.balance,
    left: reply.left,
    placed: reply.placed,
  }
  ctx.events.emit('balance', { userId, balance: result.balance })
  ctx.events.emit('autobid', {
    auctionId,
    userId,
    status: { left: result.left, placed: result.placed },
  })
  await ctx.replication.confirm('auto-bid budget')
  return result
}

/** Stops the user's auto-bidder; what is left of its budget returns to the balance. */
export async function stopAutoBid(
  ctx: EngineContext,
  auctionId: string,
  userId: string,
): Promise<
  | { ok: true; returned: number; balance: number }
  | { ok: false; reason: 'no_auto_bid' | 'user_not_found' }
> {
  const k = ctx.keys
  const reply = await withUser(ctx, userId, () =>
    autoBidStopScript.run(
      ctx.redis,
      { user: k.user(userId), autoBids: k.autoBids(auctionId), outbox: k.outbox },
      { auctionId, userId },
    ),
  )
  if (reply === 'user_not_found') return { ok: false, reason: 'user_not_found' }
  if (reply.status !== 'ok') return { ok: false, reason: 'no_auto_bid' }
  ctx.events.emit('balance', { userId, balance: reply.balance })
  ctx.events.emit('autobid', { auctionId, userId, status: null })
  return { ok: true, returned: reply.returned, balance: reply.balance }
}

/** The user's auto-bidder on an auction, or null when none is running. */
export async function getAutoBid(
  ctx: EngineContext,
  auctionId: string,
  userId: string,
): Promise<AutoBidStatus | null> {
  const [left, placed] = await ctx.redis.hmget(
    ctx.keys.autoBids(auctionId),
    `r:${userId}`,
    `p:${userId}`,
  )
  return left === null ? null : { left: Number(left), placed: Number(placed ?? 0) }
}

/** Every auto-bidder with bids left on an auction: userId -> bids left. */
export async function getAutoBidBudgets(
  ctx: EngineContext,
  auctionId: string,
): Promise<Map<string, number>> {
  const all = await ctx.redis.hgetall(ctx.keys.autoBids(auctionId))
  const budgets = new Map<string, number>()
  for (const [field, value] of Object.entries(all)) {
    if (field.startsWith('r:') && Number(value) > 0) budgets.set(field.slice(2), Number(value))
  }
  return budgets
}

/** Auctions that hold auto-bid budgets (live, upcoming, or finished and not yet returned). */
export async function getAutoBidAuctions(ctx: EngineContext): Promise<string[]> {
  return ctx.redis.smembers(ctx.keys.autoBidIndex)
}

/** A bid placed by the auto-bidder: the same rules as a manual bid, paid from the budget. */
export async function autoBid(
  ctx: EngineContext,
  auctionId: string,
  userId: string,
): Promise<AutoBidPlaceResult> {
  const keys = { ...bidKeys(ctx, auctionId, userId), autoBids: ctx.keys.autoBids(auctionId) }
  const reply = await withUser(ctx, userId, () =>
    autoBidScript.run(ctx.redis, keys, bidArgs(ctx, auctionId, userId)),
  )
  if (reply === 'user_not_found') return { ok: false, reason: 'user_not_found' }
  if (reply.status !== 'ok') return { ok: false, reason: reply.reason as AutoBidRejection }
  const { accepted } = reply
  emitBid(ctx, auctionId, userId, accepted, {
    bidder: userId,
    name: reply.name,
    bot: false,
    kind: 'autobid',
  })
  const status = await getAutoBid(ctx, auctionId, userId)
  ctx.events.emit('autobid', { auctionId, userId, status })
  return accepted
}

/**
 * Gives back every budget left on a finished (or deleted) auction, exactly once. Returns the
 * amounts given back per user; null while the auction is still running.
 */
export async function returnAutoBids(
  ctx: EngineContext,
  auctionId: string,
): Promise<Map<string, number> | null> {
  const k = ctx.keys
  const keys = {
    auction: k.auction(auctionId),
    autoBids: k.autoBids(auctionId),
    autoBidIndex: k.autoBidIndex,
    outbox: k.outbox,
  }
  const returned = new Map<string, number>()
  for (const drop of [false, true]) {
    const reply = await autoBidReturnScript.run(ctx.redis, keys, {
      auctionId,
      base: k.base,
      drop: drop ? 1 : 0,
    })
    if (reply.status !== 'ok') return drop ? returned : null
    for (const { userId, amount, balance } of reply.returned) {
      returned.set(userId, amount)
      ctx.events.emit('balance', { userId, balance })
      ctx.events.emit('autobid', { auctionId, userId, status: null })
    }
    if (reply.missing.length === 0) break
    // Balances not in Redis are loaded and the rest returned; a user who no longer exists
    // has nothing left to return to.
    for (const userId of reply.missing) await loadUser(ctx, userId)
  }
  return returned
}
