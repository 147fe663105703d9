import { Form, Link, useLocation } from '@remix-run/react'
import { Loader2, ShoppingCart } from 'lucide-react'
import { useTranslation } from '~/i18n/use-translation.ts'
import type { BuyNowOffer as Offer } from '~/models/order.server.ts'
import { formatDateTime } from '~/utils/dates.ts'
import { useFormatMoney } from '~/utils/hooks.ts'
import { useIsPending } from '~/utils/use-is-pending.ts'
import { loginHref } from '~/utils/login-href.ts'
import { Panel } from '~/components/ui/panel.tsx'

// Buy It Now on a finished auction's page (docs/decisions/017-buy-it-now.md): a participant who
// did not win sees their price (retail less 15 som per bid spent) and buys with a plain form;
// a visitor is invited to log in. Other refusals show nothing here (the action explains them).

export function BuyNowOffer({ offer, retailPrice }: { offer: Offer; retailPrice: number }) {
  const { t } = useTranslation('orders')
  const money = useFormatMoney()
  const location = useLocation()
  const busy = useIsPending({ intent: 'buyNow', state: 'submitting' })

  if (!offer.available) {
    if (offer.reason === 'errors.alreadyBought')
      return (
        <p className="mt-3 rounded-lg bg-emerald-50 p-3 text-center text-sm text-emerald-900">
          {t('errors.alreadyBought')}.{' '}
          <Link to="/profile#orders" className="font-semibold underline">
            {t('title')}
          </Link>
        </p>
      )
    if (offer.reason !== 'errors.loginToBuy') return null
    return (
      <p className="mt-3 rounded-lg bg-amber-50 p-3 text-center text-sm text-amber-950">
        {t('buyNow.loginHint')}{' '}
        <Link to={loginHref(location.pathname)} className="font-semibold underline">
          {t('buyNow.login')}
        </Link>
      </p>
    )
  }

  return (
    <Panel
      id="buy-now-title"
      heading={t('buyNow.title')}
      look="mt-4 rounded-xl border border-amber-300 bg-amber-50 p-4"
      headingClassName="text-lg font-bold"
    >
      <p className="text-sm text-slate-700">{t('buyNow.text')}</p>
      <dl className="mt-3 grid grid-cols-2 gap-2 text-sm">
        <dt className="text-slate-600">{t('buyNow.retail')}</dt>
        <dd className="text-right tabular-nums line-through">{money(retailPrice)}</dd>
        <dt className="text-slate-600">{t('buyNow.bidsSpent', { count: offer.bidsSpent })}</dt>
        <dd className="text-right tabular-nums">−{money(offer.saving)}</dd>
        <dt className="font-semibold">{t('buyNow.price')}</dt>
        <dd className="text-right text-xl font-black tabular-nums text-amber-800">
          {money(offer.price)}
        </dd>
        <dt className="text-slate-600">{t('buyNow.saving')}</dt>
        <dd className="text-right font-semibold tabular-nums text-emerald-700">
          {money(offer.saving)}
        </dd>
      </dl>
      <p className="mt-2 text-xs text-slate-600">
        {t('buyNow.deadline', { date: formatDateTime(offer.deadline) })}
      </p>
      <Form method="post" className="mt-3">
        <button
          type="submit"
          name="intent"
          value="buyNow"
          disabled={busy}
          className="flex w-full items-center justify-center gap-2 rounded-md bg-amber-700 px-4 py-3 font-semibold text-white hover:bg-amber-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-amber-400 focus-visible:ring-offset-2 disabled:opacity-70"
        >
          {busy ? (
            <Loader2 aria-hidden className="h-4 w-4 animate-spin" />
          ) : (
            <ShoppingCart aria-hidden className="h-4 w-4" />
          )}
          {t('buyNow.button')}
        </button>
      </Form>
    </Panel>
  )
}
