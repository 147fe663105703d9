import { data, redirect, type AppLoadContext } from '@remix-run/node'
import type { TFunction } from 'i18next'
import { encode } from 'turbo-stream'
import type { Engine } from '../../engine/index.ts'
import { getAuctionIdBySlug } from '~/models/auction.server.ts'
import { placeBid, placePrebid, type BidOutcome } from '~/services/bidding.server.ts'
import { getFixedT, languageOf } from '~/services/i18n.server.ts'
import { errorFields, log } from '~/services/logger.server.ts'
import { getOptionalUserId, optionalUserIdFromCookieHeader } from '~/services/session.server.ts'
import { toastCookie } from '~/services/toast.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import { readForm } from '~/utils/form.server.ts'

/**
 * The action behind every bid and prebid button (auction page, home, auctions list): a fetcher
 * gets {ok, message} with the fitting status; a plain form post (no JavaScript) is redirected
 * back to `back` with the message as a toast, or to the login page when nobody is logged in.
 */
export async function handleBidForm(
  request: Request,
  context: AppLoadContext,
  back: string,
  auctionId?: string,
) {
  const form = await readForm(request)
  const intent = form.get('intent')
  const id = auctionId ?? String(form.get('auctionId') ?? '')
  const viaFetcher = form.get('via') === 'fetcher'
  const t = await getFixedT(request)
  // An id found by the page's slug is known to exist (or is '' when none has it).
  const known = auctionId === undefined ? undefined : auctionId !== ''
  const outcome: FormOutcome =
    intent === 'bid' || intent === 'prebid'
      ? await bidFormOutcome(context.engine, intent, id, known, () => getOptionalUserId(request), t)
      : { ok: false, status: 400, message: t('api.invalid') }
  if (viaFetcher) return data(fetcherData(outcome), { status: outcome.status })
  const { location, setCookie } = formRedirect(back, outcome)
  return redirect(location, setCookie ? { headers: { 'Set-Cookie': setCookie } } : undefined)
}

/** What a bid or prebid button's post comes to, whether a fetcher or a plain form sent it. */
type FormOutcome = {
  ok: boolean
  status: number
  message: string
  /** The toast's title of a refusal. */
  title?: string
  /** The price after an accepted bid. */
  price?: number
  /** The bidder's bid balance after an accepted bid or prebid, when the engine told it. */
  balance?: number | null
  /** Nobody is logged in: a plain form goes to the login page. */
  login?: boolean
}

/** `known`: whether the auction exists, when the caller has looked it up already. */
async function bidFormOutcome(
  engine: Engine,
  intent: 'bid' | 'prebid',
  id: string,
  known: boolean | undefined,
  userIdOf: () => Promise<string | null>,
  t: TFunction,
): Promise<FormOutcome> {
  const failed = intent === 'bid' ? t('bidding.bidFailed') : t('bidding.prebidFailed')
  if (!(known ?? (await auctionExists(engine, id))))
    return { ok: false, status: 404, message: t('bidding.errors.auction_not_found'), title: failed }
  const userId = await userIdOf()
  if (!userId) {
    const message = intent === 'bid' ? t('bidding.loginToBid') : t('bidding.loginToPrebid')
    return { ok: false, status: 401, message, title: failed, login: true }
  }
  let outcome: BidOutcome
  try {
    outcome =
      intent === 'bid'
        ? await placeBid(engine, id, userId, t)
        : await placePrebid(engine, id, userId, t)
  } catch (error) {
    // Redis out of reach: said in a toast, to try again, like the API's 503.
    log.warn('bid not placed: a service is unavailable', errorFields(error))
    return { ok: false, status: 503, message: t('api.unavailable'), title: failed }
  }
  if (!outcome.ok)
    return { ok: false, status: outcome.status, message: outcome.message, title: failed }
  const price = intent === 'bid' ? outcome.price : undefined
  return { ok: true, status: 200, message: outcome.message, price, balance: outcome.balance }
}

/** What a fetcher's post gets back (the page shows the message and the new balance). */
function fetcherData(outcome: FormOutcome) {
  return {
    ok: outcome.ok,
    message: outcome.message,
    price: outcome.price ?? null,
    bidBalance: outcome.balance ?? null,
  }
}

/** An auction the engine holds exists; others are looked up in Postgres. */
async function auctionExists(engine: Engine, id: string) {
  return (
    id.length > 0 &&
    id.length <= 64 &&
    ((await engine.getState(id)) !== null ||
      (await getPrisma().auction.count({ where: { id } })) > 0)
  )
}

/** Where a plain form post goes next: back with a toast, or to the login page. */
function formRedirect(back: string, outcome: FormOutcome) {
  if (outcome.login) return { location: `/login?redirectTo=${encodeURIComponent(back)}` }
  const toast = outcome.ok
    ? ({ type: 'success', description: outcome.message } as const)
    : ({ type: 'error', title: outcome.title, description: outcome.message } as const)
  return { location: back, setCookie: toastCookie(toast) }
}

/** What a plain bid form post needs from its request: the auction's slug and two headers. */
export type BidFormRequest = {
  slug: string
  cookie: string | null | undefined
  acceptLanguage: string | null | undefined
}

/**
 * A bid from the auction page's form without JavaScript (`POST /auction/{slug}`, intent
 * `bid`): the busiest page post, answered by the production server ahead of Remix
 * (server/app.ts) with the same outcome and redirect as the route's action above.
 */
export async function bidFormPost(engine: Engine, request: BidFormRequest) {
  const back = `/auction/${encodeURIComponent(request.slug)}`
  return formRedirect(back, await bidPostOutcome(engine, request))
}

/**
 * What a bid button's post from a page with JavaScript names: the auction page's slug (its
 * route finds the auction by it) or, from a card on the home page or /auctions, the auction's id.
 */
export type BidFetcherRequest = Omit<BidFormRequest, 'slug'> &
  ({ slug: string } | { auctionId: string })

/**
 * A bid from a page with JavaScript: a fetcher's post to the page's `.data` address with
 * `intent=bid` and `via=fetcher`, as busy as the form. Answered by the production server ahead
 * of Remix with the status and body the route's action gets from Remix's single fetch: the
 * action's data, turbo-stream encoded as `{data}`.
 */
export async function bidFetcherPost(engine: Engine, request: BidFetcherRequest) {
  const outcome = await bidPostOutcome(engine, request)
  const body = await new Response(encode({ data: fetcherData(outcome) })).text()
  return { status: outcome.status, body }
}

async function bidPostOutcome(engine: Engine, request: BidFetcherRequest) {
  const t = await getFixedT(await languageOf(request.cookie, request.acceptLanguage))
  const userIdOf = () => optionalUserIdFromCookieHeader(request.cookie)
  if (!('slug' in request))
    return bidFormOutcome(engine, 'bid', request.auctionId, undefined, userIdOf, t)
  const auctionId = await getAuctionIdBySlug(engine, request.slug)
  return bidFormOutcome(engine, 'bid', auctionId ?? '', auctionId !== null, userIdOf, t)
}
