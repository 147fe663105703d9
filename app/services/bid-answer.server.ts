import type { Engine } from '../../engine/index.ts'
import { decideBid, type BidIntent } from '~/services/bidding.server.ts'
import { getOptionalUserId } from '~/services/session.server.ts'
import { apiError, json, translator } from '~/utils/api.server.ts'
import { toMajor } from '~/utils/money.ts'

/**
 * `POST /api/auctions/{id}/bid` and `/prebid`: the bid's decision as the JSON API speaks it
 * (docs/rules.md#bidding): `{ok, message, currentPrice, bidBalance}` (a prebid has no price), or
 * `{"error": ...}` with the refusal's status.
 */
export async function bidAnswer(
  request: Request,
  engine: Engine,
  intent: BidIntent,
  auctionId: string,
) {
  const [t, userId] = await Promise.all([translator(request), getOptionalUserId(request)])
  const decision = await decideBid(engine, intent, auctionId, userId, t)
  if (!decision.ok)
    return apiError(decision.status, decision.message, { headers: decision.headers })
  return json({
    ok: true,
    message: decision.message,
    ...(intent === 'bid' ? { currentPrice: toMajor(decision.price) } : {}),
    bidBalance: decision.balance,
  })
}
