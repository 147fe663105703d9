import { Form } from '@remix-run/react'
import { Loader2, Sparkles } from 'lucide-react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { eventValue, useTrack } from '~/utils/analytics.ts'
import type { BidPackage } from '~/utils/bid-packages.ts'
import { useFormatMoney } from '~/utils/hooks.ts'
import { useIsPending } from '~/utils/use-is-pending.ts'

export const PAYMENTS_NS = 'payments'

/**
 * One bid package with its Buy button: a plain form post that starts the checkout (or sends an
 * anonymous visitor to the login page), so it works without JavaScript.
 */
export function PackageCard({ pkg, loggedIn }: { pkg: BidPackage; loggedIn: boolean }) {
  const { t } = useTranslation(PAYMENTS_NS)
  const money = useFormatMoney()
  const track = useTrack()
  const busy = useIsPending({ formAction: '/topup', formData: { packageId: pkg.id } })
  const titleId = `package-${pkg.id}`
  return (
    <article
      aria-labelledby={titleId}
      className={`relative flex h-full flex-col rounded-xl border bg-white p-5 shadow-sm ${
        pkg.popular ? 'border-amber-500 ring-2 ring-amber-400' : 'border-slate-200'
      }`}
    >
      {pkg.popular ? (
        <p className="absolute -top-3 left-1/2 flex -translate-x-1/2 items-center gap-1 whitespace-nowrap rounded-full bg-amber-800 px-3 py-0.5 text-xs font-bold uppercase tracking-wide text-white">
          <Sparkles aria-hidden className="h-3.5 w-3.5" />
          {t('topup.popular')}
        </p>
      ) : null}
      <h3 id={titleId} className="text-center text-2xl font-black text-slate-900">
        {t('topup.bids', { count: pkg.bids })}
      </h3>
      <dl className="mt-4 flex-1 space-y-1 text-center">
        <dt className="sr-only">{t('topup.price')}</dt>
        <dd className="text-2xl font-bold text-amber-800">{money(pkg.price)}</dd>
        <dt className="sr-only">{t('topup.originalPrice')}</dt>
        <dd className="text-slate-600">
          <s>{money(pkg.originalPrice)}</s>
        </dd>
        <dt className="sr-only">{t('topup.savings', { amount: '' }).trim()}</dt>
        <dd className="font-semibold text-green-800">
          {t('topup.savings', { amount: money(pkg.savings) })}
        </dd>
        <dd className="text-sm text-slate-600">
          {t('topup.perBid', { price: money(pkg.price / pkg.bids) })}
        </dd>
      </dl>
      <Form
        method="post"
        action="/topup"
        className="mt-5"
        onSubmit={() => {
          if (loggedIn)
            track({ event: 'add_payment_info', value: eventValue(pkg.price), currency: 'KGS' })
        }}
      >
        <input type="hidden" name="packageId" value={pkg.id} />
        <button
          type="submit"
          name="intent"
          value="buy"
          disabled={busy}
          aria-describedby={titleId}
          className="flex w-full items-center justify-center gap-2 rounded-lg bg-amber-700 px-4 py-2.5 font-bold text-white hover:bg-amber-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-amber-400 disabled:cursor-wait disabled:opacity-80"
        >
          {busy ? <Loader2 aria-hidden className="h-5 w-5 animate-spin" /> : null}
          {t('topup.buy')}
        </button>
      </Form>
    </article>
  )
}
