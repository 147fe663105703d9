// The engine's Lua scripts (engine/lua/) of bids, prebids, balances and auto-bids, each with its
// named KEYS and ARGV and its typed reply; those of auctions are in engine/scripts-auctions.ts.
// Each runs atomically inside Redis; Redis `TIME` is the only clock. Per-auction and per-user
// keys are derived from the shared `{prefix}:` base (engine/keys.ts), so every key lives in one
// hash slot.
import { defineScript, num, refusal, type Refused } from './lua-runner.ts'
import type { BidAccepted, BidRejection, BotBidRejection, PrebidRejection } from './types.ts'

/** Refused because the user's balance is not in Redis yet: the caller loads it and asks again. */
type NotLoaded = 'user_not_loaded'

/** A placed bid, as every bid script returns it (engine/lua/shared/bid.lua). */
export type BidReply<Reason extends string> =
  { status: 'ok'; accepted: BidAccepted; name: string } | Refused<Reason>

function parseBid<Reason extends string>(raw: unknown): BidReply<Reason> {
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

const bidKeys = ['auction', 'user', 'recentBids', 'outbox', 'bidders'] as const
const bidArgs = ['auctionId', 'userId', 'timerMs', 'minIntervalMs', 'recentMax'] as const

export const bidScript = defineScript({
  name: 'bid',
  shared: ['bid'],
  keys: bidKeys,
  args: bidArgs,
  parse: parseBid<BidRejection | NotLoaded>,
})

export const autoBidScript = defineScript({
  name: 'auto-bid',
  shared: ['bid'],
  keys: [...bidKeys, 'autoBids'],
  args: bidArgs,
  parse: parseBid<BidRejection | NotLoaded | 'no_budget'>,
})

export const botBidScript = defineScript({
  name: 'bot-bid',
  shared: ['bid'],
  keys: ['auction', 'botCounts', 'recentBids', 'outbox', 'bidders'],
  args: ['auctionId', 'bidder', 'botName', 'botLimit', 'timerMs', 'recentMax'],
  parse: parseBid<BotBidRejection>,
})

export const prebidScript = defineScript({
  name: 'prebid',
  shared: ['now'],
  keys: ['auction', 'user', 'prebids', 'outbox'],
  args: ['auctionId', 'userId'],
  parse: (raw) => {
    const reply = raw as string[]
    return (
      refusal<PrebidRejection | NotLoaded>(reply) ?? {
        status: 'ok' as const,
        prebidId: reply[1]!,
        balance: num(reply[2]),
        prebids: num(reply[3]),
        at: num(reply[4]),
      }
    )
  },
})

/** A change of a balance: {outcome, entry id or '', balance}, or the user is not loaded. */
function balanceReply<Outcome extends string>(raw: unknown) {
  const reply = raw as string[]
  return refusal<NotLoaded>(reply) ?? { status: reply[0] as Outcome, balance: num(reply[2]) }
}

export const creditScript = defineScript({
  name: 'credit',
  shared: ['now'],
  keys: ['user', 'references', 'outbox'],
  args: ['userId', 'amount', 'reason', 'reference', 'auctionId'],
  parse: balanceReply<'ok' | 'dup'>,
})

/** Bids a refunded payment credited, taken back as far as the balance allows. */
export const takeBackScript = defineScript({
  name: 'take-back',
  shared: ['now'],
  keys: ['user', 'references', 'outbox'],
  args: ['userId', 'most', 'reason', 'reference'],
  parse: (raw) => {
    const reply = raw as string[]
    return (
      refusal<NotLoaded>(reply) ?? {
        status: reply[0] as 'ok' | 'dup',
        balance: num(reply[2]),
        taken: reply[0] === 'ok' ? num(reply[3]) : null,
      }
    )
  },
})

export const adjustBalanceScript = defineScript({
  name: 'adjust-balance',
  shared: ['now'],
  keys: ['user', 'references', 'outbox'],
  args: ['userId', 'change', 'reference', 'adminId', 'note', 'expected', 'maximum', 'mode'],
  parse: balanceReply<'ok' | 'dup' | 'same' | 'stale' | 'below_zero' | 'above_max'>,
})

export const autoBidReserveScript = defineScript({
  name: 'auto-bid-reserve',
  shared: ['now'],
  keys: ['auction', 'user', 'autoBids', 'autoBidIndex', 'outbox'],
  args: ['auctionId', 'userId', 'bids'],
  parse: (raw) => {
    const reply = raw as string[]
    return (
      refusal<'auction_not_found' | 'auction_ended' | 'insufficient_bids' | NotLoaded>(reply) ?? {
        status: 'ok' as const,
        balance: num(reply[2]),
        left: num(reply[3]),
        placed: num(reply[4]),
      }
    )
  },
})

export const autoBidStopScript = defineScript({
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

export const autoBidReturnScript = defineScript({
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

export const loadUserScript = defineScript({
  name: 'load-user',
  keys: ['user'],
  args: ['balance', 'name'],
  /** False for an account being deleted. */
  parse: (raw) => (raw as string[])[0] !== 'gone',
})

export const removeUserScript = defineScript({
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
