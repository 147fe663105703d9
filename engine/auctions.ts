import type { EngineContext } from './context.ts'
import { readAuction, readUnfinishedAuctions, type AuctionLoad } from './load.ts'
import { defineScript, num, refusal } from './lua-runner.ts'
import { RECENT_BIDS_KEPT, type AuctionStatus } from './types.ts'

// The engine's auctions: loading them from Postgres into Redis, removing them, an admin's end
// and the sweep that starts and finishes them, with their scripts.

/**
 * How long an auction being deleted stays out of reach of a load: far longer than the refunds
 * of its prebids take to reach Postgres, whose rows a load would otherwise bring back.
 */
const AUCTION_DELETING_MS = 60 * 60 * 1000

export type SweepResult = {
  now: number
  nextStart: number | null
  nextDeadline: number | null
  started: string[]
  finished: string[]
}

const loadAuctionScript = defineScript({
  name: 'load-auction',
  shared: ['now'],
  keys: [
    'auction',
    'upcoming',
    'ending',
    'bidders',
    'botCounts',
    'prebids',
    'autoBids',
    'autoBidIndex',
    'deleting',
  ],
  // Then, in `rest`: the bot counts, the prebidders and the budgets, as many as these say, and
  // everyone who has bid (engine/lua/load-auction.lua).
  args: [
    'auctionId',
    'status',
    'price',
    'increment',
    'startTime',
    'bids',
    'lastBidder',
    'lastBidderName',
    'lastBidderIsBot',
    'meta',
    'timerMs',
    'botBids',
    'botCounts',
    'prebidders',
    'budgets',
    'beginnerOnly',
    'lockAt',
  ],
  parse: (raw) => raw as AuctionStatus | 'skipped',
})

const removeAuctionScript = defineScript({
  name: 'remove-auction',
  keys: [
    'auction',
    'upcoming',
    'ending',
    'recentBids',
    'prebids',
    'botCounts',
    'bidders',
    'autoBids',
    'autoBidIndex',
    'deleting',
    'outbox',
  ],
  args: ['auctionId', 'seen', 'ms'],
  parse: (raw): { ok: true; status: string; through: string } | { ok: false; status: string } => {
    const [result, status = '', through = ''] = raw as string[]
    if (result !== 'ok') return { ok: false, status }
    return { ok: true, status, through }
  },
})

const endScript = defineScript({
  name: 'end',
  shared: ['now', 'expire-finished', 'wins'],
  keys: ['auction', 'ending', 'outbox'],
  args: ['auctionId', 'base', 'finishedTtlMs'],
  parse: (raw) =>
    refusal<'auction_not_found' | 'auction_not_live'>(raw as string[]) ?? { status: 'ok' as const },
})

const sweepScript = defineScript({
  name: 'sweep',
  shared: ['now', 'expire-finished', 'wins'],
  keys: ['upcoming', 'ending', 'outbox'],
  args: ['base', 'timerMs', 'recentMax', 'limit', 'finishedTtlMs'],
  parse: (raw): SweepResult => {
    const reply = raw as string[]
    const list = (value: string | undefined) => (value ? value.split(',') : [])
    return {
      now: num(reply[0]),
      nextStart: reply[1] ? num(reply[1]) : null,
      nextDeadline: reply[2] ? num(reply[2]) : null,
      started: list(reply[3]),
      finished: list(reply[4]),
    }
  },
})

/** Puts one auction from Postgres into Redis (after create/edit, or on start-up). */
export async function loadAuction(
  ctx: EngineContext,
  auctionId: string,
): Promise<AuctionStatus | 'skipped' | null> {
  const auction = await readAuction(ctx.prisma, auctionId)
  if (!auction) return null
  const loaded = await putAuction(ctx, auction)
  await catalogChanged(ctx)
  return loaded
}

/** Says that auction rows in Postgres changed (see keys.catalog). */
export async function catalogChanged(ctx: EngineContext): Promise<void> {
  await ctx.redis.incr(ctx.keys.catalog)
}

/** The current value of keys.catalog: equal values, same auction rows. */
export async function catalogVersion(ctx: EngineContext): Promise<string> {
  return (await ctx.redis.get(ctx.keys.catalog)) ?? '0'
}

/** Loads every auction that is not finished; returns how many. */
export async function loadAllAuctions(ctx: EngineContext): Promise<number> {
  let count = 0
  for await (const auction of readUnfinishedAuctions(ctx.prisma)) {
    await putAuction(ctx, auction)
    count += 1
  }
  return count
}

async function putAuction(
  ctx: EngineContext,
  auction: AuctionLoad,
): Promise<AuctionStatus | 'skipped'> {
  const k = ctx.keys
  const { id, botCounts, prebidders, budgets } = auction
  return loadAuctionScript.run(
    ctx.redis,
    {
      auction: k.auction(id),
      upcoming: k.upcoming,
      ending: k.ending,
      bidders: k.bidders(id),
      botCounts: k.botCounts(id),
      prebids: k.prebids(id),
      autoBids: k.autoBids(id),
      autoBidIndex: k.autoBidIndex,
      deleting: k.deleting(id),
    },
    {
      auctionId: id,
      status: auction.status,
      price: auction.price,
      increment: auction.increment,
      startTime: auction.startTime,
      bids: auction.bids,
      lastBidder: auction.lastBidder,
      lastBidderName: auction.lastBidderName,
      lastBidderIsBot: auction.lastBidderIsBot ? '1' : '0',
      meta: JSON.stringify(auction.meta),
      timerMs: ctx.timerMs,
      botBids: auction.botBids,
      botCounts: botCounts.length,
      prebidders: prebidders.length,
      budgets: budgets.length,
      beginnerOnly: auction.beginnerOnly ? '1' : '0',
      lockAt: auction.lockAt ?? '',
    },
    [
      ...botCounts.flatMap(([bidder, bids]) => [bidder, String(bids)]),
      ...prebidders,
      ...budgets.flatMap((b) => [b.userId, String(b.left), String(b.placed)]),
      ...auction.bidders,
    ],
  )
}

/**
 * Takes an auction out of Redis (admin delete) if it is still as the admin saw it (`seen`);
 * otherwise (an upcoming one started meanwhile) leaves it and answers the status it has.
 * Its prebids and auto-bid budgets go with it, and it is not loaded again for a while: what
 * they owe people is paid from Postgres (engine/refunds.ts) once the outbox has written
 * everything up to `through`, the newest entry at that moment ('' when none).
 */
export async function removeAuction(
  ctx: EngineContext,
  auctionId: string,
  seen: 'upcoming' | 'finished',
): Promise<{ ok: true; status: string; through: string } | { ok: false; status: string }> {
  const k = ctx.keys
  return removeAuctionScript.run(
    ctx.redis,
    {
      auction: k.auction(auctionId),
      upcoming: k.upcoming,
      ending: k.ending,
      recentBids: k.recentBids(auctionId),
      prebids: k.prebids(auctionId),
      botCounts: k.botCounts(auctionId),
      bidders: k.bidders(auctionId),
      autoBids: k.autoBids(auctionId),
      autoBidIndex: k.autoBidIndex,
      deleting: k.deleting(auctionId),
      outbox: k.outbox,
    },
    { auctionId, seen, ms: AUCTION_DELETING_MS },
  )
}

/** Whether every outbox entry up to `entryId` is written to Postgres (written ones leave). */
export async function outboxWrittenThrough(ctx: EngineContext, entryId: string): Promise<boolean> {
  if (!entryId) return true
  return (await ctx.redis.xrange(ctx.keys.outbox, '-', entryId, 'COUNT', 1)).length === 0
}

/** An admin ends a live auction now; the last bidder wins. */
export async function endAuction(
  ctx: EngineContext,
  auctionId: string,
): Promise<{ ok: true } | { ok: false; reason: 'auction_not_found' | 'auction_not_live' }> {
  const k = ctx.keys
  const reply = await endScript.run(
    ctx.redis,
    { auction: k.auction(auctionId), ending: k.ending, outbox: k.outbox },
    { auctionId, base: k.base, finishedTtlMs: ctx.finishedTtlMs },
  )
  if (reply.status !== 'ok') return { ok: false, reason: reply.reason }
  ctx.events.emit('finished', { auctionIds: [auctionId] })
  return { ok: true }
}

/** Starts and finishes what is due; the sweeper calls this in a loop. */
export async function sweep(ctx: EngineContext, limit = 100): Promise<SweepResult> {
  const k = ctx.keys
  const result = await sweepScript.run(
    ctx.redis,
    { upcoming: k.upcoming, ending: k.ending, outbox: k.outbox },
    {
      base: k.base,
      timerMs: ctx.timerMs,
      recentMax: RECENT_BIDS_KEPT,
      limit,
      finishedTtlMs: ctx.finishedTtlMs,
    },
  )
  if (result.started.length) ctx.events.emit('started', { auctionIds: result.started })
  if (result.finished.length) ctx.events.emit('finished', { auctionIds: result.finished })
  return result
}
