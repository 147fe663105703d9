import { Link } from '@remix-run/react'
import { useTranslation } from '~/i18n/use-translation.ts'
import type { UserBid } from '~/models/account.server.ts'
import { formatDateTime } from '~/utils/dates.ts'
import { useFormatMoney } from '~/utils/hooks.ts'
import { EmptyNote } from '~/components/ui/panel.tsx'

/** The user's latest bids, newest first, with a link to the whole bid history. */
export function RecentBids({ bids }: { bids: UserBid[] }) {
  const { t } = useTranslation()
  const money = useFormatMoney()
  return (
    <section aria-labelledby="recent-title">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id="recent-title" className="text-xl font-semibold">
          {t('profile.recent.title')}
        </h2>
        <Link to="/bid-history" className="text-sm font-semibold text-amber-800 underline">
          {t('profile.recent.all')}
        </Link>
      </div>
      {bids.length === 0 ? (
        <EmptyNote look="page">{t('profile.recent.empty')}</EmptyNote>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
          {bids.map((bid) => (
            <li key={bid.id} className="flex flex-wrap items-center justify-between gap-2 p-3">
              <div className="min-w-0">
                <Link
                  to={`/auction/${bid.auction.slug}`}
                  className="font-medium text-slate-900 underline-offset-2 hover:underline"
                >
                  {t('profile.recent.auction', { id: bid.auction.displayId.slice(-4) })}
                </Link>
                <p className="truncate text-sm text-slate-600">{bid.auction.title}</p>
              </div>
              <div className="text-right">
                <p className="font-semibold">{money(bid.amount)}</p>
                <p className="text-xs text-slate-600">{formatDateTime(bid.createdAt)}</p>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
