import type { EngineContext } from './context.ts'
import { defineScript } from './lua-runner.ts'
import {
  RECENT_BIDS_KEPT,
  type AuctionMeta,
  type AuctionState,
  type AuctionStatus,
  type RecentBid,
} from './types.ts'

// The engine's reads of auctions and the clock, and the scripts of the reads that need one
// moment.

/** The fields of an auction hash that make its live state, in the order parseState reads them. */
export const STATE_FIELDS = [
  'status',
  'price',
  'inc',
  'start',
  'deadline',
  'ended',
  'last',
  'lastName',
  'lastBot',
  'bids',
  'prebids',
] as const

/** An auction's live fields as HMGET returns them (STATE_FIELDS); missing ones are null or ''. */
export function parseState(id: string, f: ReadonlyArray<string | null>): AuctionState | null {
  if (!f[0]) return null
  return {
    id,
    status: f[0] as AuctionStatus,
    price: Number(f[1]),
    increment: Number(f[2]),
    startTime: Number(f[3]),
    deadline: f[0] === 'live' && f[4] ? Number(f[4]) : null,
    endedAt: f[5] ? Number(f[5]) : null,
    lastBidder: f[6] || null,
    lastBidderName: f[7] || null,
    lastBidderIsBot: f[8] === '1',
    bids: Number(f[9] || 0),
    prebids: Number(f[10] || 0),
  }
}

const timersScript = defineScript({
  name: 'timers',
  shared: ['now'],
  keys: ['ending'],
  args: ['base'],
  parse: (raw) => {
    const [now, ...entries] = raw as string[]
    const at = Number(now)
    const timers: Record<string, number> = {}
    for (let i = 0; i < entries.length; i += 2) {
      timers[entries[i]!] = Math.max(0, Number(entries[i + 1]) - at)
    }
    return { at, timers }
  },
})

const auctionViewScript = defineScript({
  name: 'auction-view',
  shared: ['now'],
  keys: ['auction', 'recentBids'],
  args: ['limit'],
  /** The clock, the live fields (STATE_FIELDS, none when not held), meta and the bids' rows. */
  parse: (raw) => {
    const reply = raw as string[]
    const fields = STATE_FIELDS.length
    return {
      at: Number(reply[0]),
      fields: reply.slice(1, 1 + fields),
      meta: reply[1 + fields],
      rows: reply.slice(2 + fields),
    }
  },
})

/** Parsed recent-bid rows an engine keeps (a few per live auction, ~300 bytes each). */
const RECENT_BID_ROWS_KEPT = 20_000

/**
 * Recent bids by their stored row, per engine: every update of an auction reads its newest bids
 * again, nearly all of them read before. Shared objects: read, never changed.
 */
const recentBidsByRow = new WeakMap<EngineContext, Map<string, RecentBid>>()

/** The rows as recent bids, parsed once per engine. */
function recentBids(ctx: EngineContext, rows: string[]): RecentBid[] {
  let known = recentBidsByRow.get(ctx)
  if (!known) {
    known = new Map<string, RecentBid>()
    recentBidsByRow.set(ctx, known)
  }
  const parsed = known
  return rows.map((row) => {
    let bid = parsed.get(row)
    if (!bid) {
      // Rows of bids long gone from every list are dropped all at once now and then.
      if (parsed.size >= RECENT_BID_ROWS_KEPT) parsed.clear()
      bid = JSON.parse(row) as RecentBid
      parsed.set(row, bid)
    }
    return bid
  })
}

export async function getState(
  ctx: EngineContext,
  auctionId: string,
): Promise<AuctionState | null> {
  return (await getStates(ctx, [auctionId]))[0] ?? null
}

/** Live states, in the order asked; null where Redis does not hold the auction. */
export async function getStates(
  ctx: EngineContext,
  auctionIds: string[],
): Promise<Array<AuctionState | null>> {
  if (auctionIds.length === 0) return []
  const pipeline = ctx.redis.pipeline()
  for (const id of auctionIds) {
    pipeline.hmget(ctx.keys.auction(id), ...STATE_FIELDS)
  }
  const replies = (await pipeline.exec()) ?? []
  return auctionIds.map((id, index) => {
    const [error, value] = replies[index] ?? [null, null]
    if (error) throw error
    return parseState(id, value as Array<string | null>)
  })
}

/**
 * One auction as a real-time update shows it, in one round trip: the clock, its live state,
 * its meta and the newest `limit` bids, all read at the same moment. Null when Redis does
 * not hold the auction.
 */
export async function getAuctionView(
  ctx: EngineContext,
  auctionId: string,
  limit: number,
): Promise<{
  at: number
  state: AuctionState
  meta: AuctionMeta | null
  bids: RecentBid[]
} | null> {
  const view = await auctionViewScript.run(
    ctx.redis,
    { auction: ctx.keys.auction(auctionId), recentBids: ctx.keys.recentBids(auctionId) },
    { limit },
  )
  const state = parseState(auctionId, view.fields)
  if (!state) return null
  return {
    at: view.at,
    state,
    meta: view.meta ? (JSON.parse(view.meta) as AuctionMeta) : null,
    bids: recentBids(ctx, view.rows),
  }
}

/**
 * A live auction's bid counts as its page shows them (docs/rules.md#auction-page): all bids,
 * the house's, and how many people and bots have bid. Null unless Redis holds it live.
 */
export async function getBidStats(
  ctx: EngineContext,
  auctionId: string,
): Promise<{
  totalBids: number
  botBids: number
  userBids: number
  uniqueParticipants: number
} | null> {
  const replies =
    (await ctx.redis
      .pipeline()
      .hmget(ctx.keys.auction(auctionId), 'status', 'bids', 'botBids')
      .scard(ctx.keys.bidders(auctionId))
      .exec()) ?? []
  for (const [error] of replies) if (error) throw error
  const [status, bids, botBids] = (replies[0]?.[1] ?? []) as Array<string | null>
  if (status !== 'live') return null
  const totalBids = Number(bids || 0)
  const house = Number(botBids || 0)
  return {
    totalBids,
    botBids: house,
    userBids: totalBids - house,
    uniqueParticipants: Number(replies[1]?.[1] ?? 0),
  }
}

export async function getMeta(ctx: EngineContext, auctionId: string): Promise<AuctionMeta | null> {
  const raw = await ctx.redis.hget(ctx.keys.auction(auctionId), 'meta')
  return raw ? (JSON.parse(raw) as AuctionMeta) : null
}

/** The newest bids first. */
export async function getRecentBids(
  ctx: EngineContext,
  auctionId: string,
  limit = RECENT_BIDS_KEPT,
): Promise<RecentBid[]> {
  return recentBids(ctx, await ctx.redis.lrange(ctx.keys.recentBids(auctionId), 0, limit - 1))
}

export async function hasPrebid(
  ctx: EngineContext,
  auctionId: string,
  userId: string,
): Promise<boolean> {
  return (await ctx.redis.zscore(ctx.keys.prebids(auctionId), userId)) !== null
}

/** Redis server time in ms: the engine's only clock. */
export async function now(ctx: EngineContext): Promise<number> {
  const [seconds, micros] = await ctx.redis.time()
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000)
}

/** Milliseconds left on every live auction's timer (docs/rules.md#calls). */
export async function getTimers(
  ctx: EngineContext,
): Promise<{ at: number; timers: Record<string, number> }> {
  return timersScript.run(ctx.redis, { ending: ctx.keys.ending }, { base: ctx.keys.base })
}
