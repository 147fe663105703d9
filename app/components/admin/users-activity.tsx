import type { ReactNode } from 'react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { StatusBadge } from '~/components/auction/status-badge.tsx'
import { formatDateTime } from '~/utils/dates.ts'
import { useFormatMoney } from '~/utils/hooks.ts'
import { EmptyNote } from '~/components/ui/panel.tsx'
import { Table } from '~/components/ui/table.tsx'

type Status = 'upcoming' | 'live' | 'finished'

/** User activity (docs/rules.md#shapes); money in minor units. */
export type UserActivityView = {
  wonAuctions: Array<{ id: string; title: string; finalPrice: number; endTime: string | null }>
  activeBids: Array<{
    id: string
    auctionTitle: string
    bidCount: number
    currentPrice: number
    status: Status
    createdAt: string | null
  }>
  prebids: Array<{ id: string; auctionTitle: string; status: Status; createdAt: string }>
}

/** The activity dialog's body: won auctions, bids per auction and prebids, each with its empty state. */
export function UserActivity({ activity }: { activity: UserActivityView }) {
  const { t } = useTranslation(['admin-users', 'admin'])
  const money = useFormatMoney()
  const when = (value: string | null) => (value ? formatDateTime(value) : '—')
  return (
    <div className="space-y-6">
      <Part
        id="activity-won"
        title={t('activity.won')}
        count={activity.wonAuctions.length}
        empty={t('activity.noWon')}
        head={[t('activity.auction'), t('activity.finalPrice'), t('activity.endTime')]}
        rows={activity.wonAuctions.map((auction) => ({
          key: auction.id,
          cells: [auction.title, money(auction.finalPrice), when(auction.endTime)],
        }))}
      />
      <Part
        id="activity-bids"
        title={t('activity.bids')}
        count={activity.activeBids.length}
        empty={t('activity.noBids')}
        head={[
          t('activity.auction'),
          t('activity.bidCount'),
          t('activity.currentPrice'),
          t('activity.status'),
          t('activity.lastBid'),
        ]}
        rows={activity.activeBids.map((bid) => ({
          key: bid.id,
          cells: [
            bid.auctionTitle,
            bid.bidCount,
            money(bid.currentPrice),
            <StatusBadge key="status" status={bid.status} />,
            when(bid.createdAt),
          ],
        }))}
      />
      <Part
        id="activity-prebids"
        title={t('activity.prebids')}
        count={activity.prebids.length}
        empty={t('activity.noPrebids')}
        head={[t('activity.auction'), t('activity.status'), t('activity.createdAt')]}
        rows={activity.prebids.map((prebid) => ({
          key: prebid.id,
          cells: [
            prebid.auctionTitle,
            t(`activity.prebidStatus.${prebid.status}`),
            when(prebid.createdAt),
          ],
        }))}
      />
    </div>
  )
}

function Part({
  id,
  title,
  count,
  empty,
  head,
  rows,
}: {
  id: string
  title: string
  count: number
  empty: string
  head: string[]
  rows: Array<{ key: string; cells: ReactNode[] }>
}) {
  return (
    <section aria-labelledby={id}>
      <h3 id={id} className="mb-2 flex items-center gap-2 text-lg font-semibold">
        {title}
        <span className="rounded-full bg-slate-100 px-2 py-0.5 text-sm text-slate-700">
          {count}
        </span>
      </h3>
      {rows.length === 0 ? (
        <EmptyNote look="inset">{empty}</EmptyNote>
      ) : (
        <Table labelledBy={id} columns={head} width="dialog" look="inset" dense>
          {rows.map((row) => (
            <tr key={row.key}>
              {row.cells.map((cell, index) =>
                index === 0 ? (
                  <th key={index} scope="row" className="px-3 py-2 font-medium">
                    {cell}
                  </th>
                ) : (
                  <td key={index} className="whitespace-nowrap px-3 py-2">
                    {cell}
                  </td>
                ),
              )}
            </tr>
          ))}
        </Table>
      )}
    </section>
  )
}
