import { useTranslation } from '~/i18n/use-translation.ts'
import { formatDateTime } from '~/utils/dates.ts'
import { useFormatMoney } from '~/utils/hooks.ts'
import { EmptyNote, StatList } from '~/components/ui/panel.tsx'
import { Table } from '~/components/ui/table.tsx'

export type AuctionStats = {
  totalBids: number
  botBids: number
  userBids: number
  adminBids: number
  uniqueParticipants: number
  bids: Array<{
    id: string
    userName: string | null
    userRole: string | null
    bidAmount: number
    createdAt: string
  }>
}

const ROLES = ['bot', 'user', 'admin'] as const

/** Auction stats (docs/rules.md#shapes): the counts by kind of bidder and the bids themselves. */
export function FinishedStats({ stats }: { stats: AuctionStats }) {
  const { t } = useTranslation(['admin-finished', 'admin'])
  const money = useFormatMoney()
  const counts: Array<[string, number]> = [
    [t('stats.total'), stats.totalBids],
    [t('stats.user'), stats.userBids],
    [t('stats.bot'), stats.botBids],
    [t('stats.admin'), stats.adminBids],
    [t('stats.participants'), stats.uniqueParticipants],
  ]
  return (
    <div className="space-y-4">
      <StatList items={counts} look="boxed" className="grid grid-cols-2 gap-2 sm:grid-cols-3" />
      <h3 className="text-lg font-semibold">{t('stats.bids')}</h3>
      {stats.bids.length === 0 ? (
        <EmptyNote look="inset">{t('stats.noBids')}</EmptyNote>
      ) : (
        <Table
          caption={t('stats.bidsCaption')}
          columns={[
            t('stats.bidder'),
            t('stats.role'),
            { label: t('stats.amount'), numeric: true },
            t('stats.time'),
          ]}
          width="sm"
          look="scroll"
          dense
        >
          {stats.bids.map((bid) => {
            const role = ROLES.find((r) => r === bid.userRole) ?? 'unknown'
            return (
              <tr key={bid.id}>
                <th scope="row" className="px-3 py-2 font-medium">
                  {bid.userName ?? (
                    <span className="italic text-slate-600">{t('stats.deletedUser')}</span>
                  )}
                </th>
                <td className="px-3 py-2">
                  <span
                    className={
                      role === 'bot'
                        ? 'whitespace-nowrap rounded bg-amber-100 px-1.5 py-0.5 text-xs font-semibold text-amber-900'
                        : 'text-slate-700'
                    }
                  >
                    {t(`stats.roles.${role}`)}
                  </span>
                </td>
                <td className="whitespace-nowrap px-3 py-2 text-right tabular-nums">
                  {money(bid.bidAmount)}
                </td>
                <td className="whitespace-nowrap px-3 py-2 tabular-nums text-slate-700">
                  {formatDateTime(bid.createdAt)}
                </td>
              </tr>
            )
          })}
        </Table>
      )}
    </div>
  )
}
