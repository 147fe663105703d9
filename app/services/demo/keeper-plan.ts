// What the demo keeper does on one pass (docs/decisions/048-demo-keeper.md): a pure decision
// from what the engine holds and the clock, so it can be checked with any clock. The keeper
// (keeper.server.ts) carries the moves out through the admin's own model functions.

export type KeeperOptions = {
  /** Live auctions the demo always shows (counting those about to start). */
  minLive: number
  /** One auction starts within this long at every moment. */
  soonMs: number
  /** How far ahead the "starting soon" one is put when none is. */
  soonLeadMs: number
  /** Upcoming auctions the demo keeps listed. */
  minUpcoming: number
  /** Gap between upcoming auctions the keeper lists itself. */
  upcomingSpacingMs: number
  /** A start this close counts as starting now; also how far ahead "now" is put, so the bots
   * assigned to it are known to the bot worker (it re-reads them every 2 s) before it starts. */
  startLeadMs: number
}

export const DEFAULT_KEEPER_OPTIONS: KeeperOptions = {
  minLive: 3,
  soonMs: 5 * 60_000,
  soonLeadMs: 3 * 60_000,
  minUpcoming: 4,
  upcomingSpacingMs: 15 * 60_000,
  startLeadMs: 5_000,
}

export type KeeperSnapshot = {
  now: number
  /** Ids of the auctions live in the engine. */
  live: string[]
  /** Auctions upcoming in the engine. */
  upcoming: Array<{ id: string; startTime: number }>
  /**
   * Finished lots that may be listed again, one per product not listed now, the one listed
   * longest ago first.
   */
  relistable: Array<{ id: string; title: string }>
}

export type KeeperMove =
  | { kind: 'bringForward'; auctionId: string; startTime: number }
  | { kind: 'relist'; fromAuctionId: string; startTime: number }

export function planKeeperPass(snapshot: KeeperSnapshot, options: KeeperOptions): KeeperMove[] {
  const { now } = snapshot
  const moves: KeeperMove[] = []
  const startNow = now + options.startLeadMs
  const byStart = [...snapshot.upcoming].sort((a, b) => a.startTime - b.startTime)
  const arriving = byStart.filter((a) => a.startTime <= startNow).length
  // Later upcoming auctions, soonest first: the ones that can be brought forward.
  const later = byStart.filter((a) => a.startTime > startNow)
  const products = [...snapshot.relistable]
  const starts: number[] = later.map((a) => a.startTime)

  const place = (startTime: number, mayBringForward: boolean) => {
    const next = mayBringForward ? later.shift() : undefined
    if (next) {
      moves.push({ kind: 'bringForward', auctionId: next.id, startTime })
      starts.splice(starts.indexOf(next.startTime), 1)
    } else {
      const product = products.shift()
      if (!product) return false
      moves.push({ kind: 'relist', fromAuctionId: product.id, startTime })
    }
    starts.push(startTime)
    return true
  }

  // The floor: too few live, the next upcoming starts now (or a finished lot is listed again).
  for (let live = snapshot.live.length + arriving; live < options.minLive; live++) {
    if (!place(startNow, true)) break
  }
  // One starting within minutes.
  const soon = (t: number) => t > startNow && t <= now + options.soonMs
  if (!starts.some(soon)) place(now + options.soonLeadMs, true)
  // A listing of upcoming lots, spaced out after the last one.
  let upcoming = starts.filter((t) => t > startNow).length
  while (upcoming < options.minUpcoming) {
    const last = Math.max(now + options.soonLeadMs, ...starts)
    if (!place(last + options.upcomingSpacingMs, false)) break
    upcoming++
  }
  return moves
}
