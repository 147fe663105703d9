import { useTranslation } from '~/i18n/use-translation.ts'
import type { UserStats } from '~/models/account.server.ts'
import { Panel, StatList } from '~/components/ui/panel.tsx'

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
    <Panel
      id="stats-title"
      heading={t('profile.stats.title')}
      headingClassName="mb-4 text-xl font-semibold"
    >
      <StatList items={items} className="grid grid-cols-2 gap-3" />
      <p className="mt-3 text-xs text-slate-600">{t('profile.stats.successRateHint')}</p>
    </Panel>
  )
}
