import {
  chain,
  entryOf,
  genesis,
  nextHash,
  type AuditEntry,
  type AuditKind,
  type ChainedEntry,
  type RecentBid,
} from '../../engine/index.ts'
import type { RecordHead } from '~/types/record.ts'
import { getPrisma } from '~/utils/db.server.ts'

// An auction's record of bids (docs/fair-play.md): its bids in the order of their places, each
// with its hash, read from Postgres, where a finished auction's record is kept for ever. A live
// auction's newest bids reach it through the outbox within moments.

/** Entries in one answer at most; `next` says where the following page starts. */
export const RECORD_PAGE_SIZE = 500

export type AuctionRecord = {
  auctionId: string
  /** As Postgres has it; a live auction's news comes from the engine first. */
  status: 'upcoming' | 'live' | 'finished'
  startTime: string
  /** The hash before the first bid: sha256 of the auction's id, "|" and its start time. */
  genesis: string
  /** The last bid's hash (the genesis while there is none): what a bidder keeps to check. */
  head: string
  /** The number of bids in the record. */
  total: number
  bids: ChainedEntry[]
  /** The `after` of the next page, or null on the last. */
  next: number | null
}

/**
 * The record from the bid after place `after` (0: from the first), `limit` bids at most, or null
 * for no auction.
 */
export async function readAuctionRecord(
  auctionId: string,
  after = 0,
  limit = RECORD_PAGE_SIZE,
): Promise<AuctionRecord | null> {
  const prisma = getPrisma()
  const [auction, rows] = await Promise.all([
    prisma.auction.findUnique({
      where: { id: auctionId },
      select: { id: true, status: true, startTime: true },
    }),
    prisma.bid.findMany({
      where: { auctionId, seq: { not: null } },
      orderBy: { seq: 'asc' },
      select: { seq: true, createdAt: true, amount: true, bidderName: true, kind: true },
    }),
  ])
  if (!auction) return null
  const startTime = auction.startTime.toISOString()
  const first = genesis(auction.id, startTime)
  // Every hash depends on all before it: the whole record is hashed, the page cut from it.
  const bids = chain(
    first,
    rows.map((row) => entryOf({ ...row, seq: row.seq!, kind: row.kind ?? 'bid' })),
  )
  const page = bids.filter((bid) => bid.seq > after).slice(0, limit)
  const last = page.at(-1)
  return {
    auctionId: auction.id,
    status: auction.status,
    startTime,
    genesis: first,
    head: bids.at(-1)?.hash ?? first,
    total: bids.length,
    bids: page,
    next: last && last.seq < (bids.at(-1)?.seq ?? 0) ? last.seq : null,
  }
}

/** `?after=` of a record's address: a place (0 by default), or null when it is none. */
export function recordAfter(url: URL): number | null {
  const raw = url.searchParams.get('after') ?? '0'
  return /^\d{1,9}$/.test(raw) ? Number(raw) : null
}

/** Heads this process has worked out, by auction: each new bid extends one with one hash. */
const heads = new Map<string, RecordHead>()
const HEADS_KEPT = 5_000
/** When each auction's head was last read from Postgres. */
const reads = new Map<string, number>()
const REREAD_MS = 1_000

/** A bid as the engine's recent bids give it -> its entry, by the same rule as a Postgres row. */
const recentEntry = (bid: RecentBid & { seq: number; kind: AuditKind }): AuditEntry =>
  entryOf({
    seq: bid.seq,
    createdAt: new Date(bid.at),
    amount: bid.price,
    bidderName: bid.name,
    kind: bid.kind,
  })

/** The head of the record as Postgres has it now. */
async function writtenHead(auctionId: string): Promise<RecordHead | null> {
  const record = await readAuctionRecord(auctionId, Number.MAX_SAFE_INTEGER)
  return record ? { seq: record.total, head: record.head } : null
}

/**
 * The head of an auction's record once its `recent` bids (the engine's newest, any order) are
 * in it: worked out once from Postgres, then one hash a bid. Every instance gets the same head
 * for the same bids: it is a function of the entries alone. Null when the bids between what
 * Postgres has and the recent ones are not at hand yet (the outbox is behind): the next update
 * says it.
 */
export async function recordHead(
  auctionId: string,
  recent: readonly RecentBid[],
): Promise<RecordHead | null> {
  const placed = recent
    .filter((bid): bid is RecentBid & { seq: number; kind: AuditKind } => bid.seq !== undefined)
    .sort((a, b) => a.seq - b.seq)
  let known = heads.get(auctionId) ?? null
  const newest = placed.at(-1)?.seq ?? 0
  if (!known || (placed.length > 0 && placed[0]!.seq > known.seq + 1 && known.seq < newest)) {
    // Read from Postgres at most once a second an auction, however many updates find a gap.
    const last = reads.get(auctionId) ?? 0
    if (known && Date.now() - last < REREAD_MS) return null
    reads.set(auctionId, Date.now())
    known = await writtenHead(auctionId)
    if (!known) return null
  }
  for (const bid of placed) {
    if (bid.seq === known.seq + 1)
      known = { seq: bid.seq, head: nextHash(known.head, recentEntry(bid)) }
  }
  if (heads.size >= HEADS_KEPT && !heads.has(auctionId)) {
    const oldest = heads.keys().next().value!
    heads.delete(oldest)
    reads.delete(oldest)
  }
  heads.set(auctionId, known)
  return known.seq >= newest ? known : null
}
