import { chain, entryOf, genesis, type ChainedEntry } from '../../engine/index.ts'
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
