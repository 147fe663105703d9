import { Link } from '@remix-run/react'
import { Package } from 'lucide-react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { RowActions, Table } from '~/components/ui/table.tsx'
import { StatusBadge } from '~/components/auction/status-badge.tsx'
import type { AuctionView } from '~/models/auction-view.server.ts'
import { formatDateTime } from '~/utils/dates.ts'
import { useFormatMoney } from '~/utils/hooks.ts'
import { DashboardCard } from '~/components/admin/dashboard-card.tsx'

type Row = Pick<
  AuctionView,
  'id' | 'displayId' | 'slug' | 'title' | 'status' | 'currentPrice' | 'startTime' | 'prebidsCount'
>

/**
 * The open auctions: live first, then upcoming by start, each with links to its dialog routes
 * (`dialogHref`).
 */
export function AuctionsTable({
  auctions,
  caption,
  dialogHref,
}: {
  auctions: Row[]
  caption: string
  dialogHref: (id: string, dialog: 'edit' | 'end' | 'delete') => string
}) {
  const { t } = useTranslation(['admin-dashboard', 'admin'])
  const formatMoney = useFormatMoney()
  return (
    <Table
      caption={caption}
      width="md"
      dense
      columns={[
        t('auctions.lot'),
        t('auctions.name'),
        t('auctions.status'),
        { label: t('auctions.price'), numeric: true },
        t('auctions.start'),
        { label: t('auctions.prebids'), numeric: true },
        t('auctions.actions'),
      ]}
    >
      {auctions.map((auction) => (
        <tr key={auction.id}>
          <td className="whitespace-nowrap px-3 py-2 font-mono text-xs">{auction.displayId}</td>
          <th scope="row" className="px-3 py-2 font-medium">
            <Link
              to={`/auction/${auction.slug}`}
              className="text-amber-800 underline-offset-2 hover:underline"
            >
              {auction.title}
            </Link>
          </th>
          <td className="px-3 py-2">
            <StatusBadge status={auction.status} />
          </td>
          <td className="whitespace-nowrap px-3 py-2 text-right tabular-nums">
            {formatMoney(auction.currentPrice)}
          </td>
          <td className="whitespace-nowrap px-3 py-2 tabular-nums">
            {formatDateTime(auction.startTime)}
          </td>
          <td className="px-3 py-2 text-right tabular-nums">{auction.prebidsCount}</td>
          <RowActions
            dense
            actions={['edit', auction.status === 'live' ? 'end' : 'delete']}
            href={(action) => dialogHref(auction.id, action)}
            text={(action) => t(`auctions.${action}`)}
            label={(action) => t(`auctions.${action}Label`, { title: auction.title })}
          />
        </tr>
      ))}
    </Table>
  )
}

/** Upcoming bid-package auctions with their prebid counts. */
export function BidPackages({
  packages,
}: {
  packages: Array<Pick<Row, 'id' | 'displayId' | 'slug' | 'title' | 'startTime' | 'prebidsCount'>>
}) {
  const { t } = useTranslation(['admin-dashboard', 'admin'])
  return (
    <DashboardCard
      id="packages-heading"
      heading={t('packages.heading')}
      icon={<Package aria-hidden className="h-5 w-5 text-amber-700" />}
      gap="space-y-3"
    >
      {packages.length === 0 ? (
        <p className="text-slate-600">{t('packages.empty')}</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {packages.map((item) => (
            <li key={item.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <div className="min-w-0">
                <Link
                  to={`/auction/${item.slug}`}
                  className="font-medium text-amber-800 underline-offset-2 hover:underline"
                >
                  {item.title}
                </Link>
                <p className="text-xs text-slate-600">
                  {item.displayId} ·{' '}
                  {t('packages.starts', { time: formatDateTime(item.startTime) })}
                </p>
              </div>
              <span className="rounded-full bg-amber-100 px-3 py-1 text-sm font-semibold text-amber-900">
                {t('packages.prebids', { count: item.prebidsCount })}
              </span>
            </li>
          ))}
        </ul>
      )}
    </DashboardCard>
  )
}
