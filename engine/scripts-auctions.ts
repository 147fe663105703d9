// The engine's Lua scripts (engine/lua/) of auctions: loading and removing them, ending them,
// the sweep and the reads that need one moment; each with its named KEYS and ARGV and its typed
// reply. Those of bids and balances are in engine/scripts.ts.
import { defineScript, num, refusal } from './lua-runner.ts'
import type { AuctionState, AuctionStatus } from './types.ts'

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

export type SweepResult = {
  now: number
  nextStart: number | null
  nextDeadline: number | null
  started: string[]
  finished: string[]
}

export const loadAuctionScript = defineScript({
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
  ],
  parse: (raw) => raw as AuctionStatus | 'skipped',
})

export const removeAuctionScript = defineScript({
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

export const endScript = defineScript({
  name: 'end',
  shared: ['now', 'expire-finished'],
  keys: ['auction', 'ending', 'outbox'],
  args: ['auctionId', 'base', 'finishedTtlMs'],
  parse: (raw) =>
    refusal<'auction_not_found' | 'auction_not_live'>(raw as string[]) ?? { status: 'ok' as const },
})

export const sweepScript = defineScript({
  name: 'sweep',
  shared: ['now', 'expire-finished'],
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

export const timersScript = defineScript({
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

export const auctionViewScript = defineScript({
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
