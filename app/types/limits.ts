/** A person's limits as the profile and GET /api/users/limits show them (docs/rules.md#limits-a-bidder-sets). */
export type LimitsView = {
  dailyBidLimit: number | null
  /** While a break runs: when it ends. */
  selfExcludedUntil: string | null
  /** The change that waits its 24 hours, whole, and when it applies. */
  pending: {
    dailyBidLimit: number | null
    selfExcludedUntil: string | null
    appliesAt: string
  } | null
  /** Bids and prebids placed today (Bishkek's day), as the limit counts them. */
  bidsToday: number
}
