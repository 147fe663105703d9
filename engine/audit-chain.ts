import { createHash } from 'node:crypto'

// An auction's record of bids as a hash chain (docs/fair-play.md): each accepted bid has its
// place (`seq`, from 1 without gaps) and its time, fixed by the bid's own script in Redis, and
// `hash = sha256(previous hash + the entry's canonical JSON)` in hex. The first "previous hash"
// is the auction's genesis: sha256 of its id, "|" and its start time. Anyone holding the entries
// can recompute every hash; a changed, missing or added entry changes every hash after it.

/** How a bid came: a click, a prebid at the start, the auto-bidder, or a house bot (disclosed). */
export type AuditKind = 'bid' | 'prebid' | 'autobid' | 'bot'

export const AUDIT_KINDS: readonly AuditKind[] = ['bid', 'prebid', 'autobid', 'bot']

/** One entry as the record shows it, before its hash. Money in som (0.01), as the API speaks. */
export type AuditEntry = {
  seq: number
  /** ISO 8601, to the millisecond, UTC. */
  at: string
  amount: number
  /** The bidder as the public bid history named them then; null for an account since deleted. */
  bidder: string | null
  kind: AuditKind
}

export type ChainedEntry = AuditEntry & { hash: string }

/** A bid as Postgres keeps it (money in minor units) -> its entry in the record. */
export function entryOf(row: {
  seq: number
  createdAt: Date
  amount: number
  bidderName: string | null
  kind: string
}): AuditEntry {
  return {
    seq: row.seq,
    at: row.createdAt.toISOString(),
    // Minor units to som: n / 100 prints as its decimal (12.35), the API's form.
    amount: row.amount / 100,
    bidder: row.bidderName,
    kind: row.kind as AuditKind,
  }
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex')

/** The hash before the first bid. */
export function genesis(auctionId: string, startTime: Date | string) {
  const start = typeof startTime === 'string' ? startTime : startTime.toISOString()
  return sha256(`${auctionId}|${start}`)
}

/** The entry's canonical JSON: these five keys in this order, no spaces (JSON.stringify). */
export function canonical(entry: AuditEntry) {
  return JSON.stringify({
    seq: entry.seq,
    at: entry.at,
    amount: entry.amount,
    bidder: entry.bidder,
    kind: entry.kind,
  })
}

export const nextHash = (previous: string, entry: AuditEntry) => sha256(previous + canonical(entry))

/** Hashes `entries` (in `seq` order) on from `previous`, the hash before the first of them. */
export function chain(previous: string, entries: readonly AuditEntry[]): ChainedEntry[] {
  let hash = previous
  return entries.map((entry) => {
    hash = nextHash(hash, entry)
    return { ...entry, hash }
  })
}

/** What a check of a whole record found: whole, or the first place it breaks. */
export type Verdict =
  | { whole: true; bids: number; head: string }
  | { whole: false; seq: number | null; problem: 'order' | 'hash' | 'head' | 'shape' }

/**
 * Checks a whole record from its genesis: every `seq` from 1 without gaps, every hash as
 * recomputed, and the last hash equal to `head`.
 */
export function verify(record: {
  auctionId: string
  startTime: string
  head: string
  bids: readonly unknown[]
}): Verdict {
  let hash = genesis(record.auctionId, record.startTime)
  let seq = 0
  for (const raw of record.bids) {
    const entry = asChained(raw)
    if (!entry) return { whole: false, seq: seq + 1, problem: 'shape' }
    if (entry.seq !== seq + 1) return { whole: false, seq: seq + 1, problem: 'order' }
    hash = nextHash(hash, entry)
    if (entry.hash !== hash) return { whole: false, seq: entry.seq, problem: 'hash' }
    seq = entry.seq
  }
  if (hash !== record.head) return { whole: false, seq: null, problem: 'head' }
  return { whole: true, bids: seq, head: hash }
}

function asChained(raw: unknown): ChainedEntry | null {
  if (!raw || typeof raw !== 'object') return null
  const e = raw as Record<string, unknown>
  const ok =
    Number.isInteger(e.seq) &&
    typeof e.at === 'string' &&
    typeof e.amount === 'number' &&
    (e.bidder === null || typeof e.bidder === 'string') &&
    AUDIT_KINDS.includes(e.kind as AuditKind) &&
    typeof e.hash === 'string'
  return ok ? (e as ChainedEntry) : null
}
