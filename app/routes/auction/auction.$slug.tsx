import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { Link, useLoaderData, type ClientLoaderFunctionArgs } from '@remix-run/react'
import i18next from 'i18next'
import { Eye } from 'lucide-react'
import { useEffect, type ComponentType } from 'react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { AuctionFacts, AuctionHelp, DisplayId } from '~/components/auction/auction-details.tsx'
import { BidHistory } from '~/components/auction/bid-history.tsx'
import { AutoBidPanel } from '~/components/auction/auto-bid-panel.tsx'
import { AuctionCostPanel } from '~/components/auction/auction-cost.tsx'
import { Figure, type AuctionStateProps } from '~/components/auction/auction-figures.tsx'
import { FinishedActions, FinishedFigures } from '~/components/auction/auction-finished.tsx'
import { LiveActions, LiveFigures } from '~/components/auction/auction-live.tsx'
import { UpcomingActions, UpcomingFigures } from '~/components/auction/auction-upcoming.tsx'
import { StatusBadge } from '~/components/auction/status-badge.tsx'
import { FairPlayNotice } from '~/components/auction/fair-play.tsx'
import { WatchToggle } from '~/components/auction/watch-toggle.tsx'
import { ConnectionIndicator } from '~/components/connection-indicator.tsx'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { findAuctionSlug, getAuctionIdBySlug } from '~/models/auction-rows.server.ts'
import { getAuctionBids, getAuctionBySlug, getAuctionStats } from '~/models/auction-view.server.ts'
import { getBuyNowOffer } from '~/models/order.server.ts'
import { recordHead } from '~/models/auction-record.server.ts'
import { RecordHeadLine } from '~/components/auction/record-head.tsx'
import { getSettings } from '~/models/settings.server.ts'
import { watchedAmong } from '~/models/watch.server.ts'
import { forVisitors } from '~/models/house-bids.ts'
import { AUTOBID_INTENTS, handleAutoBidForm } from '~/services/autobid-action.server.ts'
import { getFixedT } from '~/i18n/i18next.server.ts'
import { redirectWithToast } from '~/services/toast.server.ts'
import { handleBuyNowForm } from '~/services/order-forms.server.ts'
import { auctionViewerValues } from '~/models/viewer-marks.server.ts'
import { getOptionalUser } from '~/services/session.server.ts'
import { useFormatMoney, useOptionalUser } from '~/utils/hooks.ts'
import { useTrack } from '~/utils/analytics.ts'
import { useLiveAuction, type LiveView } from '~/utils/use-live-auction.ts'
import { readForm } from '~/utils/form.server.ts'
import { revalidateUnlessBid } from '~/utils/revalidation.ts'
import { publicPage } from '~/utils/cache-control.ts'
import { ProductImage } from '~/components/product-image.tsx'
import { PAGE_IMAGE } from '~/utils/product-image.ts'
import { Panel } from '~/components/ui/panel.tsx'
import { titleMeta } from '~/utils/meta.ts'

/** Auto-bidder texts (upcoming and live) and Buy It Now texts (finished). */
export const handle = { i18n: ['autobid', 'orders', 'watch'] }

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  // The user is asked for at once, as the root's loader does: the two share one read.
  const [t, auction, user] = await Promise.all([
    getFixedT(request),
    getAuctionBySlug(context.engine, params.slug ?? ''),
    getOptionalUser(request),
  ])
  if (!auction) {
    // Links by id or displayId (docs/rules.md#display-ids-and-slugs) lead to the slug.
    const slug = await findAuctionSlug(params.slug ?? '')
    if (slug) throw redirect(`/auction/${encodeURIComponent(slug)}`, 301)
    return data({ auction: null, title: t('auction.notFoundTitle') } as const, { status: 404 })
  }
  const [bids, stats, settings, { hasPrebid: prebid, autoBid, cost }, buyNow, watched, record] =
    await Promise.all([
      getAuctionBids(context.engine, auction),
      getAuctionStats(context.engine, auction.id),
      getSettings(),
      auctionViewerValues(context.engine, auction, user),
      auction.status === 'finished' ? getBuyNowOffer(auction.id, user?.id ?? null) : null,
      user ? watchedAmong(user.id, [auction.id]) : [],
      recordHead(auction.id, []),
    ])
  const shown = forVisitors({ auction, bids }, settings.discloseHouseBids)
  return data({
    auction: { ...shown.auction, bids: shown.bids, record },
    participants: stats.uniqueParticipants,
    discloseHouseBids: settings.discloseHouseBids,
    hasPrebid: prebid,
    autoBid,
    buyNow,
    cost,
    watching: watched.length > 0,
    title: auction.title,
  })
}

export async function clientLoader({ serverLoader }: ClientLoaderFunctionArgs) {
  const [loaded] = await Promise.all([
    serverLoader<typeof loader>(),
    i18next.loadNamespaces([...handle.i18n]),
  ])
  return loaded
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const auctionId = (await getAuctionIdBySlug(context.engine, params.slug ?? '')) ?? ''
  const back = `/auction/${encodeURIComponent(params.slug ?? '')}`
  const form = await readForm(request.clone())
  if (form.get('intent') === 'buyNow') return handleBuyNowForm(request, auctionId, back)
  if ((AUTOBID_INTENTS as readonly unknown[]).includes(form.get('intent')))
    return handleAutoBidForm(request, context, form, back, auctionId)
  // Bids and prebids go to their own action (app/routes/auction/resources.bid.ts).
  const t = await getFixedT(request)
  return redirectWithToast(back, { type: 'error', description: t('api.invalid') })
}

export default function AuctionRoute() {
  const loaded = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  if (!loaded.auction) {
    return (
      <section className="mx-auto max-w-xl py-12 text-center">
        <h1 className="text-3xl font-bold">{t('auction.notFoundTitle')}</h1>
        <p className="mt-3 text-slate-700">{t('auction.notFoundText')}</p>
        <Link
          to="/"
          className="mt-6 inline-block rounded-md bg-amber-700 px-4 py-2 font-semibold text-white hover:bg-amber-800"
        >
          {t('auction.backHome')}
        </Link>
      </section>
    )
  }
  return <AuctionDetail {...loaded} auction={loaded.auction} />
}

type Loaded = Extract<ReturnType<typeof useLoaderData<typeof loader>>, { participants: number }>

/**
 * What differs with the auction's state. The figures and actions are one component each per
 * state; the auto-bidder below them is the page's own, so its form stays mounted (and keeps
 * what was typed) when an upcoming auction starts.
 */
const STATES: Record<
  LiveView['status'],
  {
    Figures: ComponentType<AuctionStateProps>
    Actions: ComponentType<AuctionStateProps>
    /** Bids can still be placed or prebids made: viewers are counted, the auto-bidder offered. */
    open: boolean
    /** Without JavaScript the page refreshes itself every 5 s. */
    refreshes: boolean
  }
> = {
  upcoming: { Figures: UpcomingFigures, Actions: UpcomingActions, open: true, refreshes: false },
  live: { Figures: LiveFigures, Actions: LiveActions, open: true, refreshes: true },
  finished: { Figures: FinishedFigures, Actions: FinishedActions, open: false, refreshes: false },
}

function AuctionDetail({
  auction: initial,
  participants,
  discloseHouseBids,
  hasPrebid,
  autoBid,
  buyNow,
  cost,
  watching,
}: Loaded) {
  const { t } = useTranslation()
  const formatMoney = useFormatMoney()
  const user = useOptionalUser()
  const { auction, msLeft, viewers, record } = useLiveAuction(initial)
  const track = useTrack()
  useEffect(() => {
    track({ event: 'view_auction', auction_id: initial.id, auction_name: initial.title })
  }, [track, initial.id, initial.title])
  const state = STATES[auction.status]
  const stateProps: AuctionStateProps = { auction, msLeft, hasPrebid, buyNow }

  return (
    <article className="space-y-8">
      {state.refreshes ? (
        <noscript>
          <meta httpEquiv="refresh" content="5" />
        </noscript>
      ) : null}
      <div className="grid gap-6 lg:grid-cols-2">
        <div className="flex aspect-[4/3] items-center justify-center overflow-hidden rounded-2xl border border-slate-200 bg-white">
          {auction.imageUrl ? (
            <ProductImage
              url={auction.imageUrl}
              alt={auction.title}
              {...PAGE_IMAGE}
              eager
              className="h-full w-full object-contain"
            />
          ) : (
            <span className="flex flex-col items-center gap-2 text-slate-500">
              {/* The cards' file, which the browser has kept, rather than an icon in the script. */}
              <img src="/image-off.svg" alt="" className="h-12 w-12" />
              {t('auction.noImage')}
            </span>
          )}
        </div>

        <div className="space-y-4">
          <div className="flex flex-wrap items-center gap-3">
            <StatusBadge status={auction.status} />
            <DisplayId value={auction.displayId} />
            <ConnectionIndicator />
            {viewers !== null && state.open ? (
              <span className="inline-flex items-center gap-1 text-sm text-slate-700">
                <Eye aria-hidden className="h-4 w-4" />
                {t('auction.viewers', { count: viewers })}
              </span>
            ) : null}
          </div>
          <h1 className="text-2xl font-black sm:text-3xl">{auction.title}</h1>
          <FairPlayNotice auction={auction} />
          {user && (state.open || watching) ? (
            <WatchToggle auctionId={auction.id} watching={watching} />
          ) : null}

          <div className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
            <dl className="grid grid-cols-2 gap-4">
              <state.Figures {...stateProps} />
              <Figure label={t('auction.retailPrice')} className="font-semibold tabular-nums">
                {formatMoney(auction.retailPrice)}
              </Figure>
              {auction.packageBids === null ? null : (
                <Figure
                  label={t('auction.packageBidsLabel')}
                  className="font-semibold tabular-nums"
                >
                  {auction.packageBids}
                </Figure>
              )}
            </dl>
            {auction.packageBids === null ? null : (
              <p className="mt-3 text-sm text-slate-700">{t('auction.packageNote')}</p>
            )}

            <div className="mt-5">
              <state.Actions {...stateProps} />
              {user && state.open ? (
                <AutoBidPanel auctionId={auction.id} autoBid={autoBid} />
              ) : null}
            </div>
          </div>

          {user ? <AuctionCostPanel auctionId={auction.id} cost={cost} /> : null}
          <AuctionFacts auction={auction} participants={participants} />
        </div>
      </div>

      {auction.description ? (
        <section aria-labelledby="auction-description">
          <h2 id="auction-description" className="text-xl font-bold">
            {t('auction.description')}
          </h2>
          <p className="mt-2 whitespace-pre-line text-slate-800">{auction.description}</p>
        </section>
      ) : null}

      <Panel
        id="auction-history"
        heading={t('auction.history')}
        look="rounded-2xl border border-slate-200 bg-white p-5"
        headingClassName="mb-3 text-xl font-bold"
      >
        <BidHistory
          bids={auction.bids}
          status={auction.status}
          discloseHouseBids={discloseHouseBids}
        />
        <RecordHeadLine slug={auction.slug} record={record} />
      </Panel>

      <AuctionHelp />
    </article>
  )
}

/** The same page for every visitor of a language and cookie choices (app/utils/cache-control.ts). */
export const headers = publicPage(1)

export const meta = titleMeta

export const shouldRevalidate = revalidateUnlessBid

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
