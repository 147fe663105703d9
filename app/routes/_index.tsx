import type { LoaderFunctionArgs } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { AuctionGrid } from '~/components/auction/auction-grid.tsx'
import { ConnectionIndicator } from '~/components/connection-indicator.tsx'
import { Hero } from '~/components/home-hero.tsx'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { toCardView, type AuctionCardView } from '~/models/auction-card.ts'
import { forVisitors } from '~/models/house-bids.ts'
import { getHomeAuctions, type AuctionView } from '~/models/auction-view.server.ts'
import { cardMarks, idsOf } from '~/models/viewer-marks.server.ts'
import { getSettings } from '~/models/settings.server.ts'
import { i18nRoute } from '~/utils/i18n-route.ts'
import { getOptionalUser } from '~/services/session.server.ts'
import { formatDate } from '~/utils/dates.ts'
import { useFormatMoney } from '~/utils/hooks.ts'
import { revalidateUnlessBid } from '~/utils/revalidation.ts'
import { publicPage } from '~/utils/cache-control.ts'
import { titleMeta } from '~/utils/meta.ts'
import { EmptyNote } from '~/components/ui/panel.tsx'

const i18n = i18nRoute(['watch'])
export const handle = i18n.handle
export const clientLoader = i18n.clientLoader

const UPCOMING_FIRST = 9
const UPCOMING_STEP = 3
/** Live auctions shown before "show more" (docs/decisions/027-home-shows-some-live-auctions.md). */
const LIVE_FIRST = 12
const LIVE_STEP = 12
const FALLBACK_MS = 2 * 24 * 60 * 60 * 1000

/** How many cards a section shows: `?{name}=N` within [first, most], else `first`. */
function shownCount(url: URL, name: string, first: number, most: number) {
  const asked = Number.parseInt(url.searchParams.get(name) ?? '', 10)
  return Number.isFinite(asked) ? Math.min(Math.max(asked, first), most) : first
}

/** The home page's address with one section showing more (the other keeps what it shows). */
function showMoreHref(url: string, name: 'live' | 'upcoming', shown: number, step: number) {
  const next = new URL(url, 'http://x').searchParams
  next.set(name, String(shown + step))
  return `/?${next.toString()}#${name}`
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url)
  const upcomingShown = shownCount(url, 'upcoming', UPCOMING_FIRST, 99)
  const liveShown = shownCount(url, 'live', LIVE_FIRST, 500)
  const [home, user, settings] = await Promise.all([
    getHomeAuctions(context.engine, upcomingShown, liveShown),
    getOptionalUser(request),
    getSettings(),
  ])
  const { prebidIds, watchedIds } = await cardMarks(user?.id, {
    prebids: idsOf(home.upcoming, home.packages),
    watched: idsOf(home.live, home.upcoming),
  })
  const cards = (views: AuctionView[]) =>
    forVisitors({ auctions: views.map(toCardView) }, settings.discloseHouseBids).auctions
  return {
    packages: cards(home.packages),
    packageCount: home.packageCount,
    live: cards(home.live),
    liveTotal: home.liveTotal,
    liveShown,
    search: url.search,
    upcoming: cards(home.upcoming),
    upcomingTotal: home.upcomingTotal,
    winners: cards(home.winners),
    featured: forVisitors({ auction: home.featured }, settings.discloseHouseBids).auction,
    upcomingShown,
    prebidIds,
    watchedIds,
    // When no auction is featured the hero counts down two days from now (docs/rules.md#home).
    heroTarget: home.featured?.startTime ?? new Date(Date.now() + FALLBACK_MS).toISOString(),
    heroStartsIn: home.featured?.startsIn ?? FALLBACK_MS,
    title: settings.siteName,
  }
}

export default function Home() {
  const { t } = useTranslation()
  const data = useLoaderData<typeof loader>()
  return (
    <div className="space-y-12">
      <Hero featured={data.featured} target={data.heroTarget} startsIn={data.heroStartsIn} />

      <Section number={1} id="packages" title={t('home.packages')}>
        <Grid items={data.packages} empty={t('home.packagesEmpty')} prebidIds={data.prebidIds} />
        {data.packageCount > 4 ? (
          <MoreLink to="/auctions">{t('home.allAuctions', { count: data.packageCount })}</MoreLink>
        ) : null}
      </Section>

      <Section number={2} id="live" title={t('home.live')} aside={<ConnectionIndicator />}>
        <Grid
          items={data.live}
          empty={t('home.liveEmpty')}
          columns="sm:grid-cols-2"
          watchedIds={data.watchedIds}
        />
        {data.liveTotal > data.liveShown ? (
          <MoreLink to={showMoreHref(data.search, 'live', data.liveShown, LIVE_STEP)} keepScroll>
            {t('home.showMore')}
          </MoreLink>
        ) : null}
      </Section>

      <Section number={3} id="upcoming" title={t('home.upcoming')}>
        <Grid
          items={data.upcoming}
          empty={t('home.upcomingEmpty')}
          prebidIds={data.prebidIds}
          watchedIds={data.watchedIds}
        />
        {data.upcomingTotal > data.upcoming.length ? (
          <MoreLink
            to={showMoreHref(data.search, 'upcoming', data.upcomingShown, UPCOMING_STEP)}
            keepScroll
          >
            {t('home.showMore')}
          </MoreLink>
        ) : null}
      </Section>

      <Section number={4} id="winners" title={t('home.winners')}>
        <Winners items={data.winners} />
      </Section>
    </div>
  )
}

function Section({
  number,
  id,
  title,
  aside,
  children,
}: {
  number: number
  id: string
  title: string
  aside?: React.ReactNode
  children: React.ReactNode
}) {
  return (
    <section id={id} aria-labelledby={`home-${id}`} className="scroll-mt-24">
      <div className="mb-4 flex flex-wrap items-center gap-3">
        <span
          aria-hidden
          className="flex h-8 w-8 items-center justify-center rounded-full bg-slate-900 font-bold text-white"
        >
          {number}
        </span>
        <h2 id={`home-${id}`} className="text-2xl font-bold">
          {title}
        </h2>
        {aside ? <span className="ml-auto">{aside}</span> : null}
      </div>
      {children}
    </section>
  )
}

/** The link under a section to more auctions (`keepScroll`: more of the same list, in place). */
function MoreLink({
  to,
  keepScroll = false,
  children,
}: {
  to: string
  keepScroll?: boolean
  children: React.ReactNode
}) {
  return (
    <Link
      to={to}
      preventScrollReset={keepScroll}
      className="mt-4 inline-block rounded-md border border-slate-300 bg-white px-4 py-2 font-semibold hover:bg-slate-50"
    >
      {children}
    </Link>
  )
}

function Grid({
  items,
  empty,
  prebidIds,
  watchedIds,
  columns = 'sm:grid-cols-2 lg:grid-cols-3',
}: {
  items: AuctionCardView[]
  empty: string
  prebidIds?: string[]
  watchedIds?: string[]
  columns?: string
}) {
  if (items.length === 0) {
    return <EmptyNote look="section">{empty}</EmptyNote>
  }
  return (
    <AuctionGrid
      items={items}
      prebidIds={prebidIds}
      watchedIds={watchedIds}
      className={`grid gap-4 ${columns}`}
    />
  )
}

function Winners({ items }: { items: AuctionCardView[] }) {
  const { t } = useTranslation()
  const formatMoney = useFormatMoney()
  if (items.length === 0) {
    return <EmptyNote look="section">{t('home.winnersEmpty')}</EmptyNote>
  }
  return (
    <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
      {items.map((auction) => (
        <li key={auction.id} className="flex flex-wrap items-center justify-between gap-2 p-4">
          <div>
            <p className="font-semibold">{auction.winnerName ?? t('home.unknownWinner')}</p>
            <Link
              to={`/auction/${auction.slug}`}
              className="text-sm text-slate-700 hover:underline"
            >
              {auction.title}
            </Link>
          </div>
          <div className="text-right text-sm">
            <p className="font-bold text-amber-700">
              {t('home.finalPrice', {
                price: formatMoney(auction.finalPrice ?? auction.currentPrice),
              })}
            </p>
            {auction.endTime ? (
              <p className="text-slate-600">
                {t('home.endedAt', { date: formatDate(auction.endTime) })}
              </p>
            ) : null}
          </div>
        </li>
      ))}
    </ul>
  )
}

/** The same page for every visitor of a language and cookie choices (app/utils/cache-control.ts). */
export const headers = publicPage(1)

export const meta = titleMeta

export const shouldRevalidate = revalidateUnlessBid

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
