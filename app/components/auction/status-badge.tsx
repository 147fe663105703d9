import { useTranslation } from '~/i18n/use-translation.ts'
import type { AuctionStatus } from '~/models/auction-rows.server.ts'

const styles: Record<AuctionStatus, string> = {
  live: 'bg-red-600 text-white',
  upcoming: 'bg-amber-300 text-amber-950',
  finished: 'bg-slate-300 text-slate-900',
}

export function StatusBadge({ status }: { status: AuctionStatus }) {
  const { t } = useTranslation()
  return <StatusBadgeView status={status} label={t(`auction.status.${status}`)} />
}

/** The badge with its text given (a grid translates the three once for all its cards). */
export function StatusBadgeView({ status, label }: { status: AuctionStatus; label: string }) {
  return (
    <span
      className={`inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-bold uppercase tracking-wide ${styles[status]}`}
    >
      {status === 'live' ? (
        <span aria-hidden className="h-1.5 w-1.5 animate-pulse rounded-full bg-white" />
      ) : null}
      {label}
    </span>
  )
}
