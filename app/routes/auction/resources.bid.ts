import { type ActionFunctionArgs, type HeadersFunction } from '@remix-run/node'
import { decideBid } from '~/services/bidding.server.ts'
import { loginRedirect } from '~/services/guards.server.ts'
import { getFixedT } from '~/i18n/i18next.server.ts'
import { getOptionalUserId } from '~/services/session.server.ts'
import { redirectWithToast } from '~/services/toast.server.ts'
import { formAnswer, readForm } from '~/utils/form.server.ts'
import { PRIVATE } from '~/utils/cache-control.ts'
import { safeRedirect } from '~/utils/http.ts'
import { methodNotAllowed } from '~/utils/api.server.ts'

// Where every bid and prebid button posts (the auction page, the cards of the home page and
// /auctions). With JavaScript a fetcher posts here and gets the outcome as data, and no page data
// is read again (each page's `shouldRevalidate`, app/utils/revalidation.ts): the price, the timer
// and the balance arrive live. Without JavaScript the form names the page it came from
// (`redirectTo`) and is sent back there with the outcome as a toast.

export async function action({ request, context }: ActionFunctionArgs) {
  const [form, t] = await Promise.all([readForm(request), getFixedT(request)])
  const intent = form.get('intent')
  const redirectTo = form.get('redirectTo')
  const back = redirectTo === null ? null : safeRedirect(redirectTo)
  if (intent !== 'bid' && intent !== 'prebid') {
    const message = t('api.invalid')
    if (back === null) {
      return formAnswer(form, { ok: false, message, price: null, bidBalance: null }, 400)
    }
    return redirectWithToast(back, { type: 'error', description: message })
  }
  const auctionId = String(form.get('auctionId') ?? '')
  const decision = await decideBid(
    context.engine,
    intent,
    auctionId,
    await getOptionalUserId(request),
    t,
  )
  if (back !== null) {
    if (!decision.ok && decision.reason === 'login') return loginRedirect(back)
    const failed = intent === 'bid' ? t('bidding.bidFailed') : t('bidding.prebidFailed')
    const toast = decision.ok
      ? ({ type: 'success', description: decision.message } as const)
      : ({ type: 'error', title: failed, description: decision.message } as const)
    return redirectWithToast(back, toast)
  }
  return formAnswer(
    form,
    {
      ok: decision.ok,
      message: decision.message,
      price: decision.ok && intent === 'bid' ? decision.price : null,
      bidBalance: decision.ok ? decision.balance : null,
    },
    { status: decision.status, headers: decision.headers },
  )
}

// A fetcher's answer is Remix's data request: its headers are the route's, so the action's own
// (`Retry-After`) are passed on here.
export const headers: HeadersFunction = ({ actionHeaders }) => {
  const headers = new Headers({ 'Cache-Control': PRIVATE })
  const retryAfter = actionHeaders.get('Retry-After')
  if (retryAfter) headers.set('Retry-After', retryAfter)
  return headers
}

export const loader = ({ request }: { request: Request }) => methodNotAllowed(request)
