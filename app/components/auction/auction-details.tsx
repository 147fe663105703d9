import { Copy } from 'lucide-react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { showToast } from '~/components/toaster.tsx'
import { formatDateTime } from '~/utils/dates.ts'
import { useFormatMoney, useHydrated } from '~/utils/hooks.ts'
import type { LiveView } from '~/utils/use-live-auction.ts'

/** The auction page's facts under its card, the same in every state. */
export function AuctionFacts({
  auction,
  participants,
}: {
  auction: LiveView
  participants: number
}) {
  const { t } = useTranslation()
  const formatMoney = useFormatMoney()
  return (
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
  )
}

/** How the auction works and a few tips, at the foot of the page. */
export function AuctionHelp() {
  const { t } = useTranslation()
  return (
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

/** The auction's display id, with a copy button once the page has hydrated. */
export function DisplayId({ value }: { value: string }) {
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
