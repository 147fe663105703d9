import { Link } from '@remix-run/react'
import {
  Bell,
  ChevronRight,
  CreditCard,
  Package,
  Settings,
  Trophy,
  Users,
  type LucideIcon,
} from 'lucide-react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { Panel, StatList } from '~/components/ui/panel.tsx'

/** Navigation cards to the other admin pages. */
export function AdminNav() {
  const { t } = useTranslation(['admin-dashboard', 'admin'])
  // Each card: where it leads, its icon, its title and a line on what is there.
  const cards: Array<[to: string, icon: LucideIcon, title: string, text: string]> = [
    ['/admin/users', Users, t('nav.users'), t('nav.usersText')],
    ['/admin/finished-auctions', Trophy, t('nav.finished'), t('nav.finishedText')],
    ['/admin/orders', Package, t('admin-orders:nav.title'), t('admin-orders:nav.text')],
    ['/admin/payments', CreditCard, t('admin-payments:nav.title'), t('admin-payments:nav.text')],
    ['/admin/alerts', Bell, t('alerts:admin.nav'), t('alerts:admin.navText')],
    ['/admin/settings', Settings, t('nav.settings'), t('nav.settingsText')],
  ]
  return (
    <nav aria-label={t('nav.label')}>
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {cards.map(([to, Icon, title, text]) => (
          <li key={to}>
            <Link
              to={to}
              className="flex h-full items-center gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm hover:border-amber-400 hover:bg-amber-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-amber-400"
            >
              <span aria-hidden className="text-amber-700">
                <Icon className="h-6 w-6" />
              </span>
              <span className="min-w-0 flex-1">
                <span className="block font-semibold">{title}</span>
                <span className="block text-sm text-slate-600">{text}</span>
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
