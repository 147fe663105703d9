import { Link, useFetcher, useFormAction, useLocation } from '@remix-run/react'
import { Loader2 } from 'lucide-react'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { showToast } from '~/components/toaster.tsx'
import { eventValue, useTrack } from '~/utils/analytics.ts'
import { useHydrated, useOptionalUser } from '~/utils/hooks.ts'

type ActionResult = { ok: boolean; message: string; price?: number | null }

/**
 * The bid (or prebid) button: a plain form post that comes back with a toast; with JavaScript
 * a fetcher with a busy state. Disabled while pending, and when the user already leads or
 * already has a prebid (SPEC.md section 2); a login link when nobody is logged in.
 */
export function BidPanel({
  auctionId,
  intent,
  disabledReason,
  className = '',
}: {
  auctionId: string
  intent: 'bid' | 'prebid'
  disabledReason: string | null
  className?: string
}) {
  const { t } = useTranslation()
  const user = useOptionalUser()
  const location = useLocation()
  // The page's own action: on the home page that is "/?index" (a post to "/" alone would go to
  // the root layout, which takes none).
  const formAction = useFormAction()
  const hydrated = useHydrated()
  const fetcher = useFetcher<ActionResult>({ key: `${intent}-${auctionId}` })
  const pending = fetcher.state !== 'idle'

  const track = useTrack()
  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data) return
    const price = fetcher.data.price
    if (fetcher.data.ok && intent === 'bid' && typeof price === 'number') {
      track({
        event: 'bid_placed',
        auction_id: auctionId,
        value: eventValue(price),
        currency: 'KGS',
      })
    }
    const failed = intent === 'bid' ? t('bidding.bidFailed') : t('bidding.prebidFailed')
    showToast(
      fetcher.data.ok
        ? { type: 'success', description: fetcher.data.message }
        : { type: 'error', title: failed, description: fetcher.data.message },
    )
  }, [fetcher.state, fetcher.data, intent, t, track, auctionId])

  const buttonClass = `flex w-full items-center justify-center gap-2 rounded-lg px-5 py-3 text-lg font-bold shadow-sm transition ${className}`
  if (!user) {
    const back = encodeURIComponent(location.pathname + location.search)
    return (
      <Link
        to={`/login?redirectTo=${back}`}
        className={`${buttonClass} bg-slate-800 text-white hover:bg-slate-900`}
      >
        {t('auction.loginToBid')}
      </Link>
    )
  }

  // The same form before and after hydration (a fetcher's form is a plain form without
  // JavaScript): switching components would remount it and drop what was typed meanwhile.
  const FormComponent = fetcher.Form
  const label = intent === 'bid' ? t('auction.bidButton') : t('auction.prebidButton')
  return (
    <FormComponent method="post" action={formAction} preventScrollReset>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="auctionId" value={auctionId} />
      {hydrated ? <input type="hidden" name="via" value="fetcher" /> : null}
      <button
        type="submit"
        disabled={pending || Boolean(disabledReason)}
        aria-describedby={disabledReason ? `${intent}-${auctionId}-why` : undefined}
        className={`${buttonClass} bg-amber-700 text-white hover:bg-amber-800 disabled:cursor-not-allowed disabled:bg-slate-300 disabled:text-slate-700`}
      >
        {pending ? <Loader2 aria-hidden className="h-5 w-5 animate-spin" /> : null}
        {pending ? t('auction.placing') : label}
      </button>
      {disabledReason ? (
        <p
          id={`${intent}-${auctionId}-why`}
          className="mt-2 text-center text-sm font-medium text-emerald-800"
        >
          {disabledReason}
        </p>
      ) : null}
    </FormComponent>
  )
}
