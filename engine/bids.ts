import type { EngineContext } from './context.ts'
import type { AuditKind } from './audit-chain.ts'
import { defineScript, num, refusal, type Refused } from './lua-runner.ts'
import {
  MIN_BID_INTERVAL_MS,
  RECENT_BIDS_KEPT,
  type BidAccepted,
  type BidRejection,
  type BidResult,
  type BotBidRejection,
  type BotBidResult,
  type PrebidRejection,
  type PrebidResult,
} from './types.ts'
import { withUser, type NotLoaded, type RulesNotLoaded } from './users.ts'

// The engine's bids (a person's and a bot's) and prebids, and their scripts. The auto-bidder's
// bid, paid from its budget, is in engine/auto-bids.ts.

/** A placed bid, as every bid script returns it (engine/lua/shared/bid.lua). */
type BidReply<Reason extends string> =
  { status: 'ok'; accepted: BidAccepted; name: string } | Refused<Reason>

export function parseBid<Reason extends string>(raw: unknown): BidReply<Reason> {
  const reply = raw as string[]
  const refused = refusal<Reason>(reply)
  if (refused) return refused
  const balance = num(reply[5])
  return {
    status: 'ok',
    accepted: {
      ok: true,
      bidId: reply[1]!,
      price: num(reply[2]),
      deadline: num(reply[3]),
      bids: num(reply[4]),
      balance: balance < 0 ? null : balance,
      at: num(reply[6]),
    },
    name: reply[7] ?? '',
  }
}

/** The KEYS and ARGV of a person's bid, which the auto-bidder's extends. */
export const BID_KEYS = ['auction', 'user', 'recentBids', 'outbox', 'bidders'] as const
export const BID_ARGS = [
  'auctionId',
  'userId',
  'timerMs',
  'minIntervalMs',
  'recentMax',
  'base',
] as const

const bidScript = defineScript({
  name: 'bid',
  shared: ['rules', 'bid'],
  keys: BID_KEYS,
  args: BID_ARGS,
  parse: parseBid<BidRejection | NotLoaded | RulesNotLoaded>,
})

const botBidScript = defineScript({
  name: 'bot-bid',
  shared: ['rules', 'bid'],
  keys: ['auction', 'botCounts', 'recentBids', 'outbox', 'bidders'],
  args: ['auctionId', 'bidder', 'botName', 'botLimit', 'timerMs', 'recentMax', 'kind'],
  parse: parseBid<BotBidRejection>,
})

const prebidScript = defineScript({
  name: 'prebid',
  shared: ['now', 'rules'],
  keys: ['auction', 'user', 'prebids', 'outbox'],
  args: ['auctionId', 'userId', 'base'],
  parse: (raw) => {
    const reply = raw as string[]
    return (
      refusal<PrebidRejection | NotLoaded | RulesNotLoaded>(reply) ?? {
        status: 'ok' as const,
        prebidId: reply[1]!,
        balance: num(reply[2]),
        prebids: num(reply[3]),
        at: num(reply[4]),
      }
    )
  },
})

/** A person's bid: costs one bid credit (docs/rules.md#bidding). */
export async function bid(
  ctx: EngineContext,
  auctionId: string,
  userId: string,
): Promise<BidResult> {
  const reply = await withUser(ctx, userId, () =>
    bidScript.run(ctx.acked, bidKeys(ctx, auctionId, userId), bidArgs(ctx, auctionId, userId)),
  )
  if (reply === 'user_not_found') return { ok: false, reason: 'user_not_found' }
  // user_not_loaded too, when the balance left Redis between its load and the second try.
  if (reply.status !== 'ok') return { ok: false, reason: reply.reason as BidRejection }
  const { accepted } = reply
  emitBid(ctx, auctionId, userId, accepted, {
    bidder: userId,
    name: reply.name,
    bot: false,
    kind: 'bid',
  })
  if (accepted.balance !== null) ctx.events.emit('balance', { userId, balance: accepted.balance })
  await ctx.replication.confirm('bid')
  return accepted
}

/**
 * A bot's bid: no debit, never over its limit (0 = none), never outbidding itself. Its `kind` in
 * the auction's record is `bot` while house bids are disclosed (the default), else `bid`
 * (docs/fair-play.md).
 */
export async function botBid(
  ctx: EngineContext,
  auctionId: string,
  bot: { id: string; name: string; limit: number; kind?: 'bot' | 'bid' },
): Promise<BotBidResult> {
  const k = ctx.keys
  const bidder = `bot:${bot.id}`
  const kind = bot.kind ?? 'bot'
  const reply = await botBidScript.run(
    ctx.redis,
    {
      auction: k.auction(auctionId),
      botCounts: k.botCounts(auctionId),
      recentBids: k.recentBids(auctionId),
      outbox: k.outbox,
      bidders: k.bidders(auctionId),
    },
    {
      auctionId,
      bidder,
      botName: bot.name,
      botLimit: bot.limit,
      timerMs: ctx.timerMs,
      recentMax: RECENT_BIDS_KEPT,
      kind,
    },
  )
  if (reply.status !== 'ok') return { ok: false, reason: reply.reason }
  emitBid(ctx, auctionId, null, reply.accepted, {
    bidder,
    name: bot.name,
    bot: true,
    kind,
  })
  return reply.accepted
}

/** The keys of a person's bid (the auto-bidder's adds its budgets). */
export function bidKeys(ctx: EngineContext, auctionId: string, userId: string) {
  const k = ctx.keys
  return {
    auction: k.auction(auctionId),
    user: k.user(userId),
    recentBids: k.recentBids(auctionId),
    outbox: k.outbox,
    bidders: k.bidders(auctionId),
  }
}

export function bidArgs(ctx: EngineContext, auctionId: string, userId: string) {
  return {
    auctionId,
    userId,
    timerMs: ctx.timerMs,
    minIntervalMs: MIN_BID_INTERVAL_MS,
    recentMax: RECENT_BIDS_KEPT,
    base: ctx.keys.base,
  }
}

/** Tells the listeners of a placed bid (the real-time updates). */
export function emitBid(
  ctx: EngineContext,
  auctionId: string,
  userId: string | null,
  accepted: BidAccepted,
  by: { bidder: string; name: string; bot: boolean; kind: AuditKind },
) {
  ctx.events.emit('bid', {
    auctionId,
    userId,
    state: accepted,
    bid: {
      id: accepted.bidId,
      bidder: by.bidder,
      name: by.name,
      bot: by.bot,
      prebid: false,
      price: accepted.price,
      at: accepted.at,
      seq: accepted.bids,
      kind: by.kind,
    },
  })
}

/** A prebid on an upcoming auction: one per user, costs one bid credit. */
export async function prebid(
  ctx: EngineContext,
  auctionId: string,
  userId: string,
): Promise<PrebidResult> {
  const k = ctx.keys
  const reply = await withUser(ctx, userId, () =>
    prebidScript.run(
      ctx.acked,
      {
        auction: k.auction(auctionId),
        user: k.user(userId),
        prebids: k.prebids(auctionId),
        outbox: k.outbox,
      },
      { auctionId, userId, base: k.base },
    ),
  )
  if (reply === 'user_not_found') return { ok: false, reason: 'user_not_found' }
  if (reply.status !== 'ok') return { ok: false, reason: reply.reason as PrebidRejection }
  const result = {
    ok: true as const,
    prebidId: reply.prebidId,
    balance: reply.balance,
    prebids: reply.prebids,
    at: reply.at,
  }
  ctx.events.emit('prebid', { auctionId, userId, prebids: result.prebids })
  ctx.events.emit('balance', { userId, balance: result.balance })
  await ctx.replication.confirm('prebid')
  return result
}
