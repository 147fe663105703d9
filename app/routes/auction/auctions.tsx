import type { LoaderFunctionArgs } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { pageParam } from '~/utils/http.ts'
import { AuctionGrid } from '~/components/auction/auction-grid.tsx'
import { ConnectionIndicator } from '~/components/connection-indicator.tsx'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { Pager } from '~/components/pager.tsx'
import { toCardView } from '~/models/auction-card.ts'
import { forVisitors } from '~/models/house-bids.ts'
import { getSettings } from '~/models/settings.server.ts'
import { getUpcomingPage } from '~/models/auction-view.server.ts'
import { cardMarks, idsOf } from '~/models/viewer-marks.server.ts'
import { i18nRoute } from '~/utils/i18n-route.ts'
import { getOptionalUser } from '~/services/session.server.ts'
import { getFixedT } from '~/i18n/i18next.server.ts'
import { useOptionalUser } from '~/utils/hooks.ts'
import { revalidateUnlessBid } from '~/utils/revalidation.ts'
import { publicPage } from '~/utils/cache-control.ts'
import { titleMeta } from '~/utils/meta.ts'
import { EmptyNote } from '~/components/ui/panel.tsx'

const i18n = i18nRoute(['watch'])
export const handle = i18n.handle
export const clientLoader = i18n.clientLoader

// docs/rules.md#upcoming-auctions: by start time, 12 a page, paged by the URL (works without JS).
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url)
  const [result, user, t, { discloseHouseBids }] = await Promise.all([
    getUpcomingPage(context.engine, pageParam(url.searchParams.get('page'))),
    getOptionalUser(request),
    getFixedT(request),
    getSettings(),
  ])
  const ids = idsOf(result.auctions)
  const { prebidIds, watchedIds } = await cardMarks(user?.id, { prebids: ids, watched: ids })
  return {
    ...result,
    auctions: forVisitors({ auctions: result.auctions.map(toCardView) }, discloseHouseBids)
      .auctions,
    prebidIds,
    watchedIds,
    title: t('auctionsPage.title'),
  }
}

export default function AuctionsRoute() {
  const { t } = useTranslation()
  const { auctions, total, page, totalPages, prebidIds, watchedIds } =
    useLoaderData<typeof loader>()
  const user = useOptionalUser()
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-3xl font-black">{t('auctionsPage.title')}</h1>
          <p className="mt-1 text-slate-700">
            {t('auctionsPage.count', { count: total })} ·{' '}
            {t('auctionsPage.pageOf', { page, total: totalPages })}
          </p>
        </div>
        <ConnectionIndicator />
      </div>
      {user ? (
        <nav aria-label={t('auctionsPage.quickLinks')} className="flex flex-wrap gap-2">
          {[
            ['/topup', t('nav.topup')],
            ['/bid-history', t('nav.bidHistory')],
            ['/profile', t('nav.profile')],
          ].map(([to, label]) => (
            <Link
              key={to}
              to={to!}
              className="rounded-full border border-slate-300 bg-white px-4 py-1.5 text-sm font-semibold hover:bg-slate-50"
            >
              {label}
            </Link>
          ))}
        </nav>
      ) : null}
      {auctions.length === 0 ? (
        <EmptyNote look="wide">{t('auctionsPage.empty')}</EmptyNote>
      ) : (
        <AuctionGrid
          items={auctions}
          prebidIds={prebidIds}
          watchedIds={watchedIds}
          heading="h2"
          className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4"
        />
      )}
      <Pager
        page={page}
        totalPages={totalPages}
        href={(n) => (n === 1 ? '/auctions' : `/auctions?page=${n}`)}
      />
    </div>
  )
}

/** The same page for every visitor of a language and cookie choices (app/utils/cache-control.ts). */
export const headers = publicPage(1)

export const meta = titleMeta

export const shouldRevalidate = revalidateUnlessBid

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
