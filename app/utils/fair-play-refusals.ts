import type { FairPlayRejection } from '../../engine/index.ts'

/**
 * The fair-play rules' and a person's own limits' refusals (docs/rules.md#refusals): 403, with
 * the message of `bidding.errors.<reason>` whether a bid, a prebid or an auto-bidder was refused.
 */
export const FAIR_PLAY_STATUS: Record<FairPlayRejection | 'auction_locked', 403> = {
  beginner_only: 403,
  auction_locked: 403,
  win_limit: 403,
  self_excluded: 403,
  daily_limit: 403,
}
