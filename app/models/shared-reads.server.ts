import type { Engine } from '../../engine/index.ts'

// What pages read from Postgres about auctions (their rows, lists, counts) is the same for every
// visitor and changes only when an auction is created, edited, deleted, starts or finishes; the
// engine then raises a counter in Redis (Engine.catalogChanged). So each process keeps such a
// read under its key for as long as the counter stays where it was, at most MAX_AGE_MS (a net
// for changes made outside the app), and callers at the same moment share one query. The live
// state (price, timer, last bidder) is never kept here: it is read from Redis on every request.

const MAX_AGE_MS = 2_000
const MAX_ENTRIES = 2_000

type Entry = { version: string; at: number; value: Promise<unknown> }
const entries = new Map<string, Entry>()

function remember<T>(key: string, version: string, maxAgeMs: number, load: () => Promise<T>) {
  const now = Date.now()
  const kept = entries.get(key)
  if (kept && kept.version === version && now - kept.at < maxAgeMs) return kept.value as Promise<T>
  const value = load()
  const entry: Entry = { version, at: now, value }
  entries.delete(key)
  entries.set(key, entry)
  // A failed read is not kept: the next caller tries again.
  value.catch(() => {
    if (entries.get(key) === entry) entries.delete(key)
  })
  // The oldest keys go first (a Map iterates in insertion order).
  for (const oldest of entries.keys()) {
    if (entries.size <= MAX_ENTRIES) break
    entries.delete(oldest)
  }
  return value
}

/** A read of auction rows, kept until the engine's catalog counter moves. */
export async function catalogRead<T>(
  engine: Engine,
  key: string,
  load: () => Promise<T>,
): Promise<T> {
  return remember(`c:${key}`, await engine.catalogVersion(), MAX_AGE_MS, load)
}

/** A read that may be up to `maxAgeMs` old (a figure shown next to live data). */
export function recentRead<T>(key: string, maxAgeMs: number, load: () => Promise<T>): Promise<T> {
  return remember(`r:${key}`, '', maxAgeMs, load)
}
