import { Link } from '@remix-run/react'
import { Bell, ChevronRight, CreditCard, Package, Settings, Trophy, Users } from 'lucide-react'
import type { ReactNode } from 'react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { Panel, StatList } from '~/components/ui/panel.tsx'

/** Navigation cards to the other admin pages. */
export function AdminNav() {
  const { t } = useTranslation(['admin-dashboard', 'admin'])
  const cards: Array<{ to: string; icon: ReactNode; title: string; text: string }> = [
    {
      to: '/admin/users',
      icon: <Users className="h-6 w-6" />,
      title: t('nav.users'),
      text: t('nav.usersText'),
    },
    {
      to: '/admin/finished-auctions',
      icon: <Trophy className="h-6 w-6" />,
      title: t('nav.finished'),
      text: t('nav.finishedText'),
    },
    {
      to: '/admin/orders',
      icon: <Package className="h-6 w-6" />,
      title: t('admin-orders:nav.title'),
      text: t('admin-orders:nav.text'),
    },
    {
      to: '/admin/payments',
      icon: <CreditCard className="h-6 w-6" />,
      title: t('admin-payments:nav.title'),
      text: t('admin-payments:nav.text'),
    },
    {
      to: '/admin/alerts',
      icon: <Bell className="h-6 w-6" />,
      title: t('alerts:admin.nav'),
      text: t('alerts:admin.navText'),
    },
    {
      to: '/admin/settings',
      icon: <Settings className="h-6 w-6" />,
      title: t('nav.settings'),
      text: t('nav.settingsText'),
    },
  ]
  return (
    <nav aria-label={t('nav.label')}>
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {cards.map((card) => (
          <li key={card.to}>
            <Link
              to={card.to}
              className="flex h-full items-center gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm hover:border-amber-400 hover:bg-amber-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-amber-400"
            >
              <span aria-hidden className="text-amber-700">
                {card.icon}
              </span>
              <span className="min-w-0 flex-1">
                <span className="block font-semibold">{card.title}</span>
                <span className="block text-sm text-slate-600">{card.text}</span>
              </span>
              <ChevronRight aria-hidden className="h-5 w-5 text-slate-500" />
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  )
}

export type SystemStatsData = {
  total: number
  live: number
  upcoming: number
  finished: number
  bots: number
  activeBots: number
}

export function SystemStats({ stats }: { stats: SystemStatsData }) {
  const { t } = useTranslation(['admin-dashboard', 'admin'])
  const items: Array<[string, number]> = [
    [t('stats.total'), stats.total],
    [t('stats.live'), stats.live],
    [t('stats.upcoming'), stats.upcoming],
    [t('stats.finished'), stats.finished],
    [t('stats.bots'), stats.bots],
    [t('stats.activeBots'), stats.activeBots],
  ]
  return (
    <Panel id="stats-heading" heading={t('stats.heading')}>
      <StatList
        items={items}
        look="lg"
        className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6"
      />
    </Panel>
  )
}
