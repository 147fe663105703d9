import { RULE_REFUSALS, type FairPlayRejection } from '../../engine/index.ts'

/**
 * The fair-play rules' and a person's own limits' refusals (docs/rules.md#refusals): 403, with
 * the message of `bidding.errors.<reason>` whether a bid, a prebid or an auto-bidder was refused.
 */
export const FAIR_PLAY_STATUS = Object.fromEntries(
  RULE_REFUSALS.map((reason) => [reason, 403]),
) as Record<FairPlayRejection | 'auction_locked', 403>
