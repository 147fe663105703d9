import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import { Link, useLoaderData, type ClientLoaderFunctionArgs } from '@remix-run/react'
import i18next from 'i18next'
import { Copy, Eye } from 'lucide-react'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { BidHistory } from '~/components/auction/bid-history.tsx'
import { AutoBidPanel } from '~/components/auction/auto-bid-panel.tsx'
import { BidPanel } from '~/components/auction/bid-panel.tsx'
import { StatusBadge } from '~/components/auction/status-badge.tsx'
import { ConnectionIndicator } from '~/components/connection-indicator.tsx'
import { BuyNowOffer } from '~/components/orders/buy-now-offer.tsx'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { showToast } from '~/components/toaster.tsx'
import { findAuctionSlug, getAuctionIdBySlug } from '~/models/auction.server.ts'
import { getAuctionBids, getAuctionBySlug, getAuctionStats } from '~/models/auction-live.server.ts'
import { getBuyNowOffer } from '~/models/order.server.ts'
import { getSettings } from '~/models/settings.server.ts'
import { forVisitors } from '~/models/house-bids.ts'
import { AUTOBID_INTENTS, handleAutoBidForm } from '~/services/autobid-action.server.ts'
import { getFixedT } from '~/services/i18n.server.ts'
import { redirectWithToast } from '~/services/toast.server.ts'
import { handleBuyNowForm } from '~/services/order-forms.server.ts'
import { auctionViewerValues } from '~/models/auction-viewer.server.ts'
import { getOptionalUser } from '~/services/session.server.ts'
import { formatCountdown, formatDateTime } from '~/utils/dates.ts'
import { useFormatMoney, useHydrated, useOptionalUser } from '~/utils/hooks.ts'
import { useTrack } from '~/utils/analytics.ts'
import { useCountdown } from '~/utils/use-countdown.ts'
import { useLiveAuction } from '~/utils/use-live-auction.ts'
import { readForm } from '~/utils/form.server.ts'
import { revalidateUnlessBid } from '~/utils/revalidation.ts'
import { publicPage } from '~/utils/cache-control.ts'
import { ProductImage } from '~/components/product-image.tsx'
import { PAGE_IMAGE } from '~/utils/product-image.ts'

/** Auto-bidder texts (upcoming and live) and Buy It Now texts (finished). */
export const handle = { i18n: ['autobid', 'orders'] }

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
  const [bids, stats, settings, { hasPrebid: prebid, autoBid }, buyNow] = await Promise.all([
    getAuctionBids(context.engine, auction),
    getAuctionStats(context.engine, auction.id),
    getSettings(),
    auctionViewerValues(context.engine, auction, user),
    auction.status === 'finished' ? getBuyNowOffer(auction.id, user?.id ?? null) : null,
  ])
  const shown = forVisitors({ auction, bids }, settings.discloseHouseBids)
  return data({
    auction: { ...shown.auction, bids: shown.bids },
    participants: stats.uniqueParticipants,
    discloseHouseBids: settings.discloseHouseBids,
    hasPrebid: prebid,
    autoBid,
    buyNow,
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
  // Bids and prebids go to their own action (app/routes/resources.bid.ts).
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

function AuctionDetail({
  auction: initial,
  participants,
  discloseHouseBids,
  hasPrebid,
  autoBid,
  buyNow,
}: Loaded) {
  const { t } = useTranslation()
  const formatMoney = useFormatMoney()
  const user = useOptionalUser()
  const hydrated = useHydrated()
  const { auction, msLeft, viewers } = useLiveAuction(initial)
  const track = useTrack()
  useEffect(() => {
    track({ event: 'view_auction', auction_id: initial.id, auction_name: initial.title })
  }, [track, initial.id, initial.title])
  const winnerName =
    auction.winner?.username ??
    (auction.winnerBotName ? t('auction.houseWinner', { name: auction.winnerBotName }) : null)

  return (
    <article className="space-y-8">
      {auction.status === 'live' ? (
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
            {viewers !== null && auction.status !== 'finished' ? (
              <span className="inline-flex items-center gap-1 text-sm text-slate-700">
                <Eye aria-hidden className="h-4 w-4" />
                {t('auction.viewers', { count: viewers })}
              </span>
            ) : null}
          </div>
          <h1 className="text-2xl font-black sm:text-3xl">{auction.title}</h1>

          <div className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
            <dl className="grid grid-cols-2 gap-4">
              <div>
                <dt className="text-sm text-slate-600">
                  {auction.status === 'finished'
                    ? t('auction.winningBid')
                    : t('auction.currentPrice')}
                </dt>
                <dd className="text-3xl font-black tabular-nums text-amber-700" aria-live="polite">
                  {formatMoney(auction.finalPrice ?? auction.currentPrice)}
                </dd>
              </div>
              {auction.status === 'live' ? (
                <div>
                  <dt className="text-sm text-slate-600">{t('auction.timeLeft')}</dt>
                  <dd
                    className={`text-3xl font-black tabular-nums ${msLeft !== null && msLeft < 4000 ? 'text-red-600' : ''}`}
                  >
                    <span role="timer">{formatCountdown(msLeft ?? 0)}</span>
                  </dd>
                </div>
              ) : auction.status === 'upcoming' ? (
                <UpcomingCountdown startTime={auction.startTime} startsIn={auction.startsIn} />
              ) : (
                <div>
                  <dt className="text-sm text-slate-600">{t('auction.winner')}</dt>
                  <dd className="text-xl font-bold [overflow-wrap:anywhere]">
                    {winnerName ?? '—'}
                  </dd>
                </div>
              )}
              {auction.status !== 'finished' ? (
                <div>
                  <dt className="text-sm text-slate-600">{t('auction.nextBid')}</dt>
                  <dd className="font-semibold tabular-nums">
                    {formatMoney(auction.currentPrice + auction.bidIncrement)}
                  </dd>
                </div>
              ) : null}
              <div>
                <dt className="text-sm text-slate-600">{t('auction.retailPrice')}</dt>
                <dd className="font-semibold tabular-nums">{formatMoney(auction.retailPrice)}</dd>
              </div>
            </dl>

            <div className="mt-5">
              {auction.status === 'live' ? (
                <BidPanel
                  auctionId={auction.id}
                  intent="bid"
                  disabledReason={
                    auction.lastBidderId === user?.id && !auction.lastBidderIsBot
                      ? t('auction.leading')
                      : null
                  }
                />
              ) : auction.status === 'upcoming' ? (
                <>
                  <BidPanel
                    auctionId={auction.id}
                    intent="prebid"
                    disabledReason={hasPrebid ? t('auction.prebidDone') : null}
                  />
                  <p className="mt-2 text-center text-sm text-slate-600">
                    {t('auction.notifyAtStart')}
                  </p>
                </>
              ) : auction.totalBids === 0 ? (
                <p className="rounded-lg bg-slate-100 p-3 text-center font-medium">
                  {t('auction.noBids')}
                </p>
              ) : null}
              {auction.status === 'finished' && buyNow ? (
                <BuyNowOffer offer={buyNow} retailPrice={auction.retailPrice} />
              ) : null}
              {auction.status !== 'finished' ? (
                <p className="mt-2 text-center text-xs text-slate-600">
                  {t('auction.bidCost', { step: formatMoney(auction.bidIncrement) })}
                </p>
              ) : null}
              {auction.status === 'live' && !hydrated ? (
                <p className="mt-1 text-center text-xs text-slate-500">
                  {t('auction.refreshHint')}
                </p>
              ) : null}
              {user && auction.status !== 'finished' ? (
                <AutoBidPanel auctionId={auction.id} autoBid={autoBid} />
              ) : null}
            </div>
          </div>

          <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-3">
            <Fact label={t('auction.totalBids')} value={String(auction.totalBids)} />
            <Fact label={t('auction.participants')} value={String(participants)} />
            <Fact label={t('auction.lastBidder')} value={auction.lastBidder ?? '—'} />
            <Fact label={t('auction.startingPrice')} value={formatMoney(auction.startingPrice)} />
            <Fact
              label={t('auction.estimatedValue')}
              value={auction.estimatedValue === null ? '—' : formatMoney(auction.estimatedValue)}
            />
            <Fact label={t('auction.condition')} value={auction.condition ?? '—'} />
            <Fact label={t('auction.category')} value={auction.category ?? '—'} />
            <Fact label={t('auction.prebids')} value={String(auction.prebidsCount)} />
            <Fact label={t('auction.startTime')} value={formatDateTime(auction.startTime)} />
          </dl>
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

      <section
        aria-labelledby="auction-history"
        className="rounded-2xl border border-slate-200 bg-white p-5"
      >
        <h2 id="auction-history" className="mb-3 text-xl font-bold">
          {t('auction.history')}
        </h2>
        <BidHistory
          bids={auction.bids}
          status={auction.status}
          discloseHouseBids={discloseHouseBids}
        />
      </section>

      <div className="grid gap-4 sm:grid-cols-2">
        <InfoList
          title={t('auction.howTitle')}
          items={[t('auction.how.one'), t('auction.how.two'), t('auction.how.three')]}
        />
        <InfoList
          title={t('auction.tipsTitle')}
          items={[t('auction.tips.one'), t('auction.tips.two'), t('auction.tips.three')]}
        />
      </div>
    </article>
  )
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0 rounded-lg bg-white p-3 shadow-sm ring-1 ring-slate-200">
      <dt className="text-xs text-slate-600">{label}</dt>
      <dd className="font-semibold [overflow-wrap:anywhere]">{value}</dd>
    </div>
  )
}

function InfoList({ title, items }: { title: string; items: string[] }) {
  return (
    <section className="rounded-2xl bg-amber-50 p-5">
      <h2 className="font-bold">{title}</h2>
      <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-800">
        {items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </section>
  )
}

/** Upcoming: counted down locally every second (docs/rules.md#auction-page). */
/** Time to the start, counted down from the server's figure with the monotonic clock. */
function UpcomingCountdown({
  startTime,
  startsIn,
}: {
  startTime: string
  startsIn: number | null
}) {
  const { t } = useTranslation()
  const left = useCountdown(startsIn)
  return (
    <div>
      <dt className="text-sm text-slate-600">{t('auction.startsIn')}</dt>
      <dd className="text-2xl font-black tabular-nums">
        <span role="timer">
          {left === null ? formatDateTime(startTime) : formatCountdown(left)}
        </span>
      </dd>
    </div>
  )
}

function DisplayId({ value }: { value: string }) {
  const { t } = useTranslation()
  const hydrated = useHydrated()
  return (
    <span className="inline-flex items-center gap-1 rounded-md bg-slate-100 px-2 py-0.5 font-mono text-sm text-slate-800">
      <span className="sr-only">{t('auction.displayId')}: </span>
      <span className="select-all">{value}</span>
      {hydrated ? (
        <button
          type="button"
          aria-label={t('auction.copy')}
          className="rounded p-0.5 hover:bg-slate-200"
          onClick={() => {
            void navigator.clipboard
              ?.writeText(value)
              .then(() => showToast({ type: 'success', description: t('auction.copied') }))
          }}
        >
          <Copy aria-hidden className="h-3.5 w-3.5" />
        </button>
      ) : null}
    </span>
  )
}

/** The same page for every visitor of a language and cookie choices (app/utils/cache-control.ts). */
export const headers = publicPage(1)

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }]

export const shouldRevalidate = revalidateUnlessBid

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
