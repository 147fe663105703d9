import { useTranslation } from '~/i18n/use-translation.ts'
import type { LiveAuction } from '~/models/auction-json.ts'
import { bidStatus, type BidStatus, type LiveBid } from '~/models/bid-json.ts'
import { formatTime } from '~/utils/dates.ts'
import { useFormatMoney } from '~/utils/hooks.ts'
import { EmptyNote } from '~/components/ui/panel.tsx'
import { Table } from '~/components/ui/table.tsx'

const statusClass: Record<BidStatus, string> = {
  winning: 'bg-emerald-100 text-emerald-900',
  outbid: 'bg-slate-100 text-slate-700',
  won: 'bg-amber-100 text-amber-900',
  lost: 'bg-slate-100 text-slate-700',
}

/**
 * Newest first, each with its status; bot bids are labelled as house bids when the operator
 * discloses them.
 */
export function BidHistory({
  bids,
  status,
  discloseHouseBids,
}: {
  bids: LiveBid[]
  status: LiveAuction['status']
  discloseHouseBids: boolean
}) {
  const { t } = useTranslation()
  const formatMoney = useFormatMoney()
  if (bids.length === 0) {
    return <EmptyNote look="inset">{t('auction.historyEmpty')}</EmptyNote>
  }
  return (
    <Table
      columns={[
        t('auction.bidder'),
        t('auction.bidAmount'),
        t('auction.bidTime'),
        t('auction.bidStatus'),
      ]}
      width="fit"
      look="ruled"
    >
      {bids.map((bid, index) => (
        <tr key={bid.id}>
          <td className="py-2 pr-3 font-medium [overflow-wrap:anywhere]">
            {bid.isBot ? bid.botName : bid.user?.username}
            {bid.isBot && discloseHouseBids ? (
              <span className="ml-2 rounded bg-slate-200 px-1.5 py-0.5 text-xs font-normal text-slate-800">
                {t('auction.houseBid')}
              </span>
            ) : null}
            {bid.isPrebid ? (
              <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs font-normal text-amber-900">
                {t('auction.prebid')}
              </span>
            ) : null}
          </td>
          <td className="py-2 pr-3 tabular-nums">{formatMoney(Math.round(bid.amount * 100))}</td>
          <td className="py-2 pr-3 tabular-nums text-slate-600">{formatTime(bid.createdAt)}</td>
          <td className="py-2 pr-3">
            <RowStatus status={bidStatus(status, index === 0)} />
          </td>
        </tr>
      ))}
    </Table>
  )
}

function RowStatus({ status }: { status: BidStatus | null }) {
  const { t } = useTranslation()
  if (!status) return null
  return (
    <span className={`whitespace-nowrap rounded px-1.5 py-0.5 text-xs ${statusClass[status]}`}>
      {t(`auction.bidStatuses.${status}`)}
    </span>
  )
}
