// Fair-play auctions (docs/rules.md#fair-play-auctions): what the server and the browser both
// work out from an auction's settings. The bid engine enforces them (engine/lua/shared/rules.lua).

/**
 * When an auction closes to new bidders: its start plus `lockAfterMinutes` (an auction goes live
 * at its start), in ms since the epoch; null when it never closes.
 */
export function lockTime(auction: { startTime: string | Date; lockAfterMinutes: number | null }) {
  if (auction.lockAfterMinutes === null) return null
  return new Date(auction.startTime).getTime() + auction.lockAfterMinutes * 60_000
}
