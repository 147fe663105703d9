import { Form, Link, useFetcher, useLocation } from '@remix-run/react'
import { Loader2 } from 'lucide-react'
import { useCallback, useEffect, type ReactNode } from 'react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { showToast } from '~/components/toaster.tsx'
import { eventValue, useTrack } from '~/utils/analytics.ts'
import { useHydrated, useOptionalUser, useReportBalance } from '~/utils/hooks.ts'
import { BID_ACTION } from '~/utils/revalidation.ts'
import { loginHref } from '~/utils/login-href.ts'
import { useIsPending } from '~/utils/use-is-pending.ts'
import { useTelegramMainButton } from '~/utils/telegram-web-app.ts'

export type BidIntent = 'bid' | 'prebid'
export type BidActionResult = {
  ok: boolean
  message: string
  price?: number | null
  /** The bid balance after an accepted bid or prebid. */
  bidBalance?: number | null
}

/**
 * The bid (or prebid) button: a plain form post to the bid action that comes back to this page
 * with a toast; with JavaScript a fetcher with a busy state. Disabled while pending, and when the
 * user already leads or already has a prebid (docs/rules.md#bidding, #prebids); a login link
 * when nobody is logged in.
 */
export function BidPanel({
  auctionId,
  intent,
  disabledReason,
  className = '',
}: {
  auctionId: string
  intent: BidIntent
  /** Why the signed-in person cannot bid or prebid here (they lead, they hold a prebid). */
  disabledReason: string | null
  className?: string
}) {
  const { t } = useTranslation()
  const user = useOptionalUser()
  const location = useLocation()
  const hydrated = useHydrated()
  const fetcherKey = `${intent}-${auctionId}`
  const fetcher = useFetcher<BidActionResult>({ key: fetcherKey })
  const pending = useIsPending({ fetcher })

  const announce = useBidAnnouncer()
  useEffect(() => {
    if (!pending && fetcher.data) announce(fetcher.data, intent, auctionId)
  }, [pending, fetcher.data, intent, auctionId, announce])

  const label = intent === 'bid' ? t('auction.bidButton') : t('auction.prebidButton')
  // Inside Telegram its main button at the bottom bids too, through the same fetcher.
  useTelegramMainButton(
    user
      ? {
          text: pending ? t('auction.placing') : label,
          disabled: pending || Boolean(disabledReason),
          onClick: () =>
            fetcher.submit(
              { intent, auctionId, via: 'fetcher' },
              { method: 'post', action: BID_ACTION },
            ),
        }
      : null,
  )

  if (!user) {
    return (
      <Link to={loginToBidHref(location)} className={loginButtonClass(className)}>
        {t('auction.loginToBid')}
      </Link>
    )
  }

  // A plain form without JavaScript; until the page is hydrated it names the page to come back
  // to, and the bid action answers it with a redirect. With JavaScript it submits through the
  // keyed fetcher above (`navigate={false}`); being Remix's own Form, the bid route is discovered
  // as soon as the page hydrates rather than when the button is pressed.
  return (
    <Form
      method="post"
      action={BID_ACTION}
      navigate={false}
      fetcherKey={fetcherKey}
      preventScrollReset
    >
      <BidFormFields
        auctionId={auctionId}
        intent={intent}
        redirectTo={hydrated ? null : location.pathname + location.search}
        pending={pending}
        label={label}
        placingLabel={t('auction.placing')}
        disabledReason={disabledReason}
        className={className}
      />
    </Form>
  )
}

const buttonClass = (extra: string) =>
  `flex w-full items-center justify-center gap-2 rounded-lg px-5 py-3 text-lg font-bold shadow-sm transition ${extra}`

/** The look of the "log in to bid" link that stands where the button is for visitors. */
export const loginButtonClass = (extra: string) =>
  `${buttonClass(extra)} bg-slate-800 text-white hover:bg-slate-900`

/** Where "log in to bid" goes: the login page, and back here afterwards. */
export const loginToBidHref = (location: { pathname: string; search: string }) =>
  loginHref(location.pathname + location.search)

/**
 * What goes inside a bid or prebid form: what it asks for, the button, and why it is disabled
 * when it is. Pure markup, the same with or without JavaScript.
 */
export function BidFormFields({
  auctionId,
  intent,
  redirectTo,
  pending,
  label,
  placingLabel,
  disabledReason,
  className,
}: {
  auctionId: string
  intent: BidIntent
  /** The page a post without JavaScript comes back to; null for a fetcher's (it says so). */
  redirectTo: string | null
  pending: boolean
  label: string
  placingLabel: string
  disabledReason: string | null
  className: string
}): ReactNode {
  const why = `${intent}-${auctionId}-why`
  return (
    <>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="auctionId" value={auctionId} />
      {redirectTo === null ? (
        <input type="hidden" name="via" value="fetcher" />
      ) : (
        <input type="hidden" name="redirectTo" value={redirectTo} />
      )}
      <button
        type="submit"
        disabled={pending || Boolean(disabledReason)}
        aria-describedby={disabledReason ? why : undefined}
        className={`${buttonClass(className)} telegram-button bg-amber-700 text-white hover:bg-amber-800 disabled:cursor-not-allowed disabled:bg-slate-300 disabled:text-slate-700`}
      >
        {pending ? <Loader2 aria-hidden className="h-5 w-5 animate-spin" /> : null}
        {pending ? placingLabel : label}
      </button>
      {disabledReason ? (
        <p id={why} className="mt-2 text-center text-sm font-medium text-emerald-800">
          {disabledReason}
        </p>
      ) : null}
    </>
  )
}

/** Says how a bid or prebid sent with JavaScript went (a toast), and counts an accepted bid. */
export function useBidAnnouncer() {
  const { t } = useTranslation()
  const track = useTrack()
  const reportBalance = useReportBalance()
  return useCallback(
    (result: BidActionResult, intent: BidIntent, auctionId: string) => {
      if (result.ok && typeof result.bidBalance === 'number') reportBalance(result.bidBalance)
      const price = result.price
      if (result.ok && intent === 'bid' && typeof price === 'number') {
        track({
          event: 'bid_placed',
          auction_id: auctionId,
          value: eventValue(price),
          currency: 'KGS',
        })
      }
      const failed = intent === 'bid' ? t('bidding.bidFailed') : t('bidding.prebidFailed')
      showToast(
        result.ok
          ? { type: 'success', description: result.message }
          : { type: 'error', title: failed, description: result.message },
      )
    },
    [t, track, reportBalance],
  )
}
