import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { Link, Outlet, useLoaderData, useLocation, useMatches } from '@remix-run/react'
import { i18nRoute } from '~/utils/i18n-route.ts'
import { Plus } from 'lucide-react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { AuctionsTable, BidPackages } from '~/components/admin/dashboard-auctions-table.tsx'
import { BotListCard } from '~/components/admin/dashboard-bot-list.tsx'
import { BotsInAuctionCard } from '~/components/admin/dashboard-bots-in-auction.tsx'
import { BotSettingsCard } from '~/components/admin/dashboard-bot-settings.tsx'
import { AdminNav, SystemStats } from '~/components/admin/dashboard-overview.tsx'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { Pager } from '~/components/pager.tsx'
import {
  BOTS_PER_PAGE,
  botsInAuction,
  getBotSettings,
  listBots,
} from '~/models/admin-bots.server.ts'
import { getSystemStats, getUpcomingBidPackages } from '~/models/admin-dashboard.server.ts'
import { getOpenAuctionsPage } from '~/models/auction-view.server.ts'
import { requireAdmin, requireAdminT } from '~/services/guards.server.ts'
import { getFixedT } from '~/i18n/i18next.server.ts'
import {
  AUCTIONS_PER_PAGE,
  DASHBOARD_NS,
  dashboardHref,
  dashboardQuery,
  type DashboardForm,
} from '~/utils/admin-dashboard.ts'
import { pageParam } from '~/utils/http.ts'
import { OLD_DIALOGS, redirectOldDialog } from '~/utils/old-dialogs.server.ts'
import { buttonClass } from '~/components/ui/button.tsx'
import { titleMeta } from '~/utils/meta.ts'
import { EmptyNote } from '~/components/ui/panel.tsx'

// /admin, the admin dashboard: statistics, the open auctions, bid packages, bot settings, the
// bot list and the bots in one auction. Every dialog (a new auction, an auction's edit with its bots, end, delete, a bot's
// delete) and every form is a child route with its own loader and action (admin._dashboard.*.tsx),
// shown in the <Outlet /> over this page: a Radix dialog with JavaScript, a section at the top of
// the page without. Links open them; closing one goes back to /admin with the same pages of the
// tables.

const i18n = i18nRoute(DASHBOARD_NS)
export const handle = i18n.handle
export const clientLoader = i18n.clientLoader

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request)
  const url = new URL(request.url)
  redirectOldDialog(request, OLD_DIALOGS.dashboard)
  const t = await getFixedT(request, DASHBOARD_NS)
  const [stats, open, packages, botSettings, bots, botsCard] = await Promise.all([
    getSystemStats(),
    getOpenAuctionsPage(context.engine, pageParam(url.searchParams.get('page')), AUCTIONS_PER_PAGE),
    getUpcomingBidPackages(context.engine),
    getBotSettings(),
    listBots(pageParam(url.searchParams.get('botsPage')), BOTS_PER_PAGE),
    botsInAuction(url.searchParams.get('botsAuction')),
  ])
  return {
    title: t('title'),
    stats,
    // Ended a moment ago: the engine knows before Postgres does.
    auctions: open.auctions.filter((auction) => auction.status !== 'finished'),
    page: open.page,
    totalPages: open.totalPages,
    total: open.total,
    packages,
    botSettings,
    bots,
    botsCard,
  }
}

/**
 * Before its dialogs and forms had routes of their own, every form of the dashboard posted here
 * with an `intent`. A page that old (opened before an update) gets 400 and is told to reload;
 * its post is not guessed at.
 */
export async function action({ request }: ActionFunctionArgs) {
  const t = await requireAdminT(request, DASHBOARD_NS)
  throw data(t('staleForm'), { status: 400 })
}

/** The dashboard form open in its own route (a refusal without JavaScript), shown only there. */
function useOpenForm() {
  return useMatches()
    .map((match) => (match.handle as { dashboardForm?: DashboardForm } | undefined)?.dashboardForm)
    .find(Boolean)
}

export default function AdminDashboardRoute() {
  const loaded = useLoaderData<typeof loader>()
  const { search } = useLocation()
  const { t } = useTranslation(DASHBOARD_NS)
  const openForm = useOpenForm()
  const href = (path: string, change?: Parameters<typeof dashboardHref>[2]) =>
    dashboardHref(path, search, change)
  const pageOf = (n: number) => (n > 1 ? String(n) : null)
  const first = (loaded.page - 1) * AUCTIONS_PER_PAGE + 1
  const last = Math.min(loaded.total, loaded.page * AUCTIONS_PER_PAGE)

  return (
    <div className="space-y-8">
      <div className="space-y-2">
        <h1 className="text-3xl font-bold">{t('title')}</h1>
        <p className="text-slate-700">{t('intro')}</p>
      </div>

      <Outlet />

      <AdminNav />
      <SystemStats stats={loaded.stats} />

      <section aria-labelledby="auctions-heading" className="space-y-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="auctions-heading" className="text-xl font-semibold">
            {t('auctions.heading')}
          </h2>
          <Link to={href('/auctions/new')} preventScrollReset className={buttonClass()}>
            <Plus aria-hidden className="h-4 w-4" />
            {t('auctions.create')}
          </Link>
        </div>
        {loaded.auctions.length === 0 ? (
          <EmptyNote look="page">{t('auctions.empty')}</EmptyNote>
        ) : (
          <>
            <AuctionsTable
              auctions={loaded.auctions}
              caption={t('auctions.caption', { page: loaded.page, pages: loaded.totalPages })}
              dialogHref={(id, dialog) => href(`/auctions/${encodeURIComponent(id)}/${dialog}`)}
            />
            <p className="text-center text-sm text-slate-700" role="status">
              {t('auctions.range', { from: first, to: last, total: loaded.total })}
            </p>
          </>
        )}
        <Pager
          page={loaded.page}
          totalPages={loaded.totalPages}
          href={(n) => href('', { page: pageOf(n) })}
        />
      </section>

      <BidPackages packages={loaded.packages} />

      <div className="grid gap-6 lg:grid-cols-2 [&>*]:min-w-0">
        {openForm === 'botSettings' ? null : (
          <BotSettingsCard settings={loaded.botSettings} action={href('/bots/settings')} />
        )}
        <BotListCard
          bots={loaded.bots}
          createAction={openForm === 'createBot' ? null : href('/bots/new')}
          pageHref={(n) => href('', { botsPage: pageOf(n) })}
          deleteHref={(id) => href(`/bots/${encodeURIComponent(id)}/delete`)}
        />
        <BotsInAuctionCard
          card={loaded.botsCard}
          kept={Object.fromEntries(dashboardQuery(search, { botsAuction: null }))}
        />
      </div>
    </div>
  )
}

export const meta = titleMeta

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
