import { useTranslation } from 'react-i18next'
import { formatDateTime } from '~/utils/dates.ts'
import { useFormatMoney } from '~/utils/hooks.ts'
import { StatList } from '~/components/ui/panel.tsx'

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
        <p className="rounded-lg border border-dashed border-slate-300 p-4 text-center text-slate-600">
          {t('stats.noBids')}
        </p>
      ) : (
        <div className="max-h-80 overflow-auto rounded-lg border border-slate-200">
          <table className="w-full min-w-[28rem] text-left text-sm">
            <caption className="sr-only">{t('stats.bidsCaption')}</caption>
            <thead className="sticky top-0 bg-slate-50 text-slate-700">
              <tr>
                <th scope="col" className="px-3 py-2 font-semibold">
                  {t('stats.bidder')}
                </th>
                <th scope="col" className="px-3 py-2 font-semibold">
                  {t('stats.role')}
                </th>
                <th scope="col" className="px-3 py-2 text-right font-semibold">
                  {t('stats.amount')}
                </th>
                <th scope="col" className="px-3 py-2 font-semibold">
                  {t('stats.time')}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
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
            </tbody>
          </table>
        </div>
      )}
    </div>
  )
}
