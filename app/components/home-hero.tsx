import { Link } from '@remix-run/react'
import { useTranslation } from '~/i18n/use-translation.ts'
import type { AuctionView } from '~/models/auction-view.server.ts'
import { formatCountdown, formatDateTime } from '~/utils/dates.ts'
import { useFormatMoney } from '~/utils/hooks.ts'
import { useCountdown } from '~/utils/use-countdown.ts'

/** The home page's top: what the site is, and the next auction to start with its countdown. */
export function Hero({
  featured,
  target,
  startsIn,
}: {
  featured: AuctionView | null
  target: string
  startsIn: number
}) {
  const { t } = useTranslation()
  const formatMoney = useFormatMoney()
  const left = useCountdown(startsIn)
  return (
    <section className="grid gap-6 rounded-2xl bg-gradient-to-br from-amber-700 to-orange-800 p-6 text-white sm:p-10 lg:grid-cols-[3fr_2fr]">
      <div>
        <h1 className="text-3xl font-black sm:text-4xl">{t('home.heroTitle')}</h1>
        <p className="mt-3 max-w-2xl text-lg text-amber-50">{t('home.heroText')}</p>
        <div className="mt-6 flex flex-wrap gap-3">
          <Link
            to="/auctions"
            className="rounded-md bg-white px-5 py-3 font-semibold text-amber-800 hover:bg-amber-50"
          >
            {t('home.toAuctions')}
          </Link>
          <Link
            to="/how-it-works"
            className="rounded-md border border-white/70 px-5 py-3 font-semibold text-white hover:bg-white/10"
          >
            {t('nav.howItWorks')}
          </Link>
        </div>
      </div>
      <div className="rounded-xl bg-white/15 p-5">
        <p className="text-sm font-semibold uppercase tracking-wide text-amber-50">
          {featured ? t('home.featured') : t('home.featuredFallback')}
        </p>
        {featured ? <p className="mt-1 text-xl font-bold">{featured.title}</p> : null}
        {/* Before the countdown runs (no JavaScript yet, or none) the time is the start's. */}
        <p className="mt-3 text-sm text-amber-50">
          {left === null ? t('home.featuredStartsAt') : t('home.featuredStartsIn')}
        </p>
        <p className="text-4xl font-black tabular-nums" role="timer">
          {left === null ? formatDateTime(target) : formatCountdown(left)}
        </p>
        {featured ? (
          <>
            <p className="mt-2 text-sm text-amber-50">
              {t('home.retail', { price: formatMoney(featured.retailPrice) })}
            </p>
            <Link
              to={`/auction/${featured.slug}`}
              className="mt-3 inline-block font-semibold underline"
            >
              {t('home.toFeatured')}
            </Link>
          </>
        ) : null}
      </div>
    </section>
  )
}
