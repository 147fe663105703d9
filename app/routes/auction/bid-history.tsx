import type { LoaderFunctionArgs } from '@remix-run/node'
import { Link, useLoaderData, useRevalidator } from '@remix-run/react'
import { ArrowRight } from 'lucide-react'
import { useEffect, type ReactNode } from 'react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { StatusBadge } from '~/components/auction/status-badge.tsx'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { LoginRequired } from '~/components/login-required.tsx'
import { getBidHistoryStats, getUserBids, getUserPrebids } from '~/models/account.server.ts'
import { forVisitors } from '~/models/house-bids.ts'
import { getSettings } from '~/models/settings.server.ts'
import { getAuctionCosts, type AuctionCost } from '~/models/auction-cost.server.ts'
import { AuctionCostList } from '~/components/auction/auction-cost.tsx'
import { getFixedT } from '~/i18n/i18next.server.ts'
import { loginView, withUser } from '~/services/guards.server.ts'
import { formatDateTime } from '~/utils/dates.ts'
import { useFormatMoney, useOptionalUser } from '~/utils/hooks.ts'
import { useSocket } from '~/utils/socket.tsx'
import { OUTBOX_SETTLE_MS } from '~/utils/revalidation.ts'
import { EmptyNote, Panel, StatList } from '~/components/ui/panel.tsx'
import { buttonClass } from '~/components/ui/button.tsx'
import { titleMeta } from '~/utils/meta.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  const t = await getFixedT(request)
  const title = t('bidHistory.title')
  return withUser(
    request,
    () => loginView({ history: null, title } as const),
    async (user) => {
      const [bids, prebids, stats, { discloseHouseBids }] = await Promise.all([
        getUserBids(user.id, { active: true }),
        getUserPrebids(user.id),
        getBidHistoryStats(user.id),
        getSettings(),
      ])
      // What each listed auction has cost them, for all of them at once.
      const costs = await getAuctionCosts(user.id, [
        ...bids.map((bid) => bid.auctionId),
        ...prebids.map((prebid) => prebid.auction.id),
      ])
      const history = { ...forVisitors({ bids, stats }, discloseHouseBids), prebids, costs }
      return { history, title }
    },
  )
}

export const meta = titleMeta

export default function BidHistoryRoute() {
  const { history } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  useRefreshOnOwnBids()
  if (!history) return <LoginRequired text={t('bidHistory.loginRequired')} back="back" />
  const { bids, prebids, stats, costs } = history
  const costRows = firstRowPerAuction([
    ...bids.map((bid) => ({ key: `bid:${bid.id}`, auctionId: bid.auctionId })),
    ...prebids.map((prebid) => ({ key: `prebid:${prebid.id}`, auctionId: prebid.auction.id })),
  ])
  return (
    <div className="space-y-6">
      <h1 className="text-3xl font-bold">{t('bidHistory.title')}</h1>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <div className="space-y-6">
          <Card title={t('bidHistory.activeBids')} count={bids.length} id="active-bids">
            {bids.length === 0 ? (
              <EmptyNote look="section">{t('bidHistory.noBids')}</EmptyNote>
            ) : (
              <ol className="divide-y divide-slate-200">
                {bids.map((bid, index) => (
                  <Row
                    key={bid.id}
                    title={bid.auction.title}
                    number={bids.length - index}
                    detail={<BidDetail amount={bid.amount} at={bid.createdAt} />}
                    status={bid.auction.status}
                    to={`/auction/${bid.auction.slug}`}
                    cost={costRows.has(`bid:${bid.id}`) ? costs[bid.auctionId] : undefined}
                  />
                ))}
              </ol>
            )}
          </Card>
          <Card title={t('bidHistory.prebids')} count={prebids.length} id="my-prebids">
            {prebids.length === 0 ? (
              <EmptyNote look="section">{t('bidHistory.noPrebids')}</EmptyNote>
            ) : (
              <ol className="divide-y divide-slate-200">
                {prebids.map((prebid, index) => (
                  <Row
                    key={prebid.id}
                    title={prebid.auction.title}
                    number={prebids.length - index}
                    detail={
                      <span className="text-sm text-slate-600">
                        {prebid.convertedAt
                          ? t('bidHistory.prebidConverted', {
                              date: formatDateTime(prebid.convertedAt),
                            })
                          : t('bidHistory.prebidHint', {
                              date: formatDateTime(prebid.auction.startTime),
                            })}
                      </span>
                    }
                    status={prebid.auction.status}
                    to={`/auction/${prebid.auction.slug}`}
                    cost={
                      costRows.has(`prebid:${prebid.id}`) ? costs[prebid.auction.id] : undefined
                    }
                  />
                ))}
              </ol>
            )}
          </Card>
        </div>
        <Panel
          id="history-stats"
          heading={t('bidHistory.stats.title')}
          className="h-fit"
          headingClassName="text-xl font-semibold"
        >
          <p className="mb-4 mt-1 text-xs text-slate-600">{t('bidHistory.stats.hint')}</p>
          <StatList
            className="grid grid-cols-2 gap-3"
            items={(
              [
                ['totalBids', stats.totalBids],
                ['prebids', stats.prebids],
                ['participants', stats.participants],
                ['userBids', stats.userBids],
              ] as const
            )
              // Bids by people are not counted apart while house bids are not disclosed.
              .filter(([, value]) => value !== undefined)
              .map(([key, value]) => [t(`bidHistory.stats.${key}`), value] as const)}
          />
        </Panel>
      </div>
    </div>
  )
}

/**
 * The root refreshes the page when this user's balance changes; the lists come from Postgres,
 * which the engine's outbox fills a moment later, so they are read once more after it.
 */
function useRefreshOnOwnBids() {
  const { socket } = useSocket()
  const userId = useOptionalUser()?.id
  const { revalidate } = useRevalidator()
  useEffect(() => {
    if (!socket || !userId) return
    let timer: ReturnType<typeof setTimeout> | undefined
    const onUpdate = (event: { userId?: string }) => {
      if (event.userId !== userId) return
      clearTimeout(timer)
      timer = setTimeout(revalidate, OUTBOX_SETTLE_MS)
    }
    socket.on('bidBalanceUpdate', onUpdate)
    return () => {
      clearTimeout(timer)
      socket.off('bidBalanceUpdate', onUpdate)
    }
  }, [socket, userId, revalidate])
}

/**
 * The rows an auction's cost stands on: its first on the page (its newest bid, else its prebid),
 * so an auction bid on many times shows it once.
 */
function firstRowPerAuction(rows: Array<{ key: string; auctionId: string }>) {
  const first = new Map<string, string>()
  for (const row of rows) if (!first.has(row.auctionId)) first.set(row.auctionId, row.key)
  return new Set(first.values())
}

function Card({
  title,
  count,
  id,
  children,
}: {
  title: string
  count: number
  id: string
  children: ReactNode
}) {
  return (
    <Panel
      id={id}
      heading={
        <>
          {title}
          <span className="rounded-full bg-slate-900 px-2 py-0.5 text-xs font-bold text-white">
            {count}
          </span>
        </>
      }
      headingClassName="mb-3 flex items-center gap-2 text-xl font-semibold"
    >
      {children}
    </Panel>
  )
}

function BidDetail({ amount, at }: { amount: number; at: string }) {
  const money = useFormatMoney()
  return (
    <span className="text-sm text-slate-600">
      <strong className="text-slate-900">{money(amount)}</strong> · {formatDateTime(at)}
    </span>
  )
}

function Row({
  title,
  number,
  detail,
  status,
  to,
  cost,
}: {
  title: string
  number: number
  detail: ReactNode
  status: 'upcoming' | 'live' | 'finished'
  to: string
  /** What the auction has cost the person, on its first row. */
  cost?: AuctionCost
}) {
  const { t } = useTranslation()
  return (
    <li className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:gap-3">
      <div className="flex min-w-0 flex-1 items-start gap-3">
        <span className="w-9 shrink-0 pt-0.5 text-sm font-semibold text-slate-600">#{number}</span>
        <div className="min-w-0 flex-1">
          <p className="break-words font-medium">{title}</p>
          {detail}
          {cost ? (
            <div className="mt-2 max-w-sm rounded-lg bg-slate-50 p-2">
              <p className="text-xs font-semibold text-slate-700">{t('auctionCost.title')}</p>
              <AuctionCostList cost={cost} />
            </div>
          ) : null}
        </div>
      </div>
      <div className="flex items-center justify-between gap-3 pl-12 sm:pl-0">
        <StatusBadge status={status} />
        <Link
          to={to}
          aria-label={t('bidHistory.goToAuction', { title })}
          className={buttonClass({
            variant: 'outline',
            size: 'compact',
            className: 'whitespace-nowrap',
          })}
        >
          {t('bidHistory.goTo')}
          <ArrowRight aria-hidden className="h-4 w-4" />
        </Link>
      </div>
    </li>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
