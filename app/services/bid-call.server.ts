import { MIN_BID_INTERVAL_MS, type Engine } from '../../engine/index.ts'
import { placeBid, type BidOutcome } from '~/services/bidding.server.ts'
import { getFixedT, languageOf } from '~/services/i18n.server.ts'
import { errorFields, log } from '~/services/logger.server.ts'
import { optionalUserIdFromCookieHeader } from '~/services/session.server.ts'
import { toMajor } from '~/utils/money.ts'

/** An answer of the JSON API before it becomes a Response (or an Express reply). */
export type CallAnswer = {
  status: number
  body: Record<string, unknown>
  headers?: Record<string, string>
}

/** What the bid call needs from its request: the auction in its path and two headers. */
export type BidCallRequest = {
  auctionId: string
  cookie: string | null | undefined
  acceptLanguage: string | null | undefined
}

/**
 * `POST /api/auctions/{id}/bid` (docs/rules.md#bidding). The busiest call of the site and one that
 * renders nothing, so the server answers it ahead of Remix (server/app.ts) with this same
 * function that the route module uses; it reads only the two headers, never the body.
 */
export async function bidCall(engine: Engine, request: BidCallRequest): Promise<CallAnswer> {
  const t = await getFixedT(await languageOf(request.cookie, request.acceptLanguage))
  let outcome: BidOutcome
  try {
    const userId = await optionalUserIdFromCookieHeader(request.cookie)
    if (!userId) return { status: 401, body: { error: t('bidding.loginToBid') } }
    outcome = await placeBid(engine, request.auctionId, userId, t)
  } catch (error) {
    // Redis or Postgres out of reach: a clean answer to retry, not a 500.
    log.warn('bid not placed: a service is unavailable', errorFields(error))
    return { status: 503, body: { error: t('api.unavailable') }, headers: { 'Retry-After': '2' } }
  }
  if (!outcome.ok) {
    // Too soon after this person's last bid: the next one is allowed within the interval.
    const headers =
      outcome.reason === 'too_fast'
        ? { 'Retry-After': String(Math.ceil(MIN_BID_INTERVAL_MS / 1000)) }
        : undefined
    return { status: outcome.status, body: { error: outcome.message }, headers }
  }
  return {
    status: 200,
    body: {
      ok: true,
      message: outcome.message,
      currentPrice: toMajor(outcome.price),
      bidBalance: outcome.balance,
    },
  }
}
