import { useTranslation } from 'react-i18next'
import type { UserStats } from '~/models/account.server.ts'

/** The profile's numbers: bids and prebids running, auctions won, bids spent, success rate. */
export function StatsCard({ stats }: { stats: UserStats }) {
  const { t } = useTranslation()
  const items: Array<[string, string]> = [
    [t('profile.stats.activeBids'), String(stats.activeBids)],
    [t('profile.stats.activePrebids'), String(stats.activePrebids)],
    [t('profile.stats.wonAuctions'), String(stats.wonAuctions)],
    [t('profile.stats.totalSpent'), t('profile.bidsCount', { count: stats.totalSpent })],
    [t('profile.stats.successRate'), `${stats.successRate}%`],
  ]
  return (
    <section
      aria-labelledby="stats-title"
      className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id="stats-title" className="mb-4 text-xl font-semibold">
        {t('profile.stats.title')}
      </h2>
      <dl className="grid grid-cols-2 gap-3">
        {items.map(([label, value]) => (
          <div key={label} className="rounded-lg bg-slate-50 p-3">
            <dt className="text-xs text-slate-600">{label}</dt>
            <dd className="text-lg font-bold">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-3 text-xs text-slate-600">{t('profile.stats.successRateHint')}</p>
    </section>
  )
}
