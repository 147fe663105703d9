import { ConfirmRoute } from '~/components/admin/confirm-route.tsx'
import { deleteAuction } from '~/models/admin-auctions.server.ts'
import { auctionNamed } from '~/models/admin-dashboard.server.ts'
import { confirmRoute } from '~/services/confirm-route.server.ts'
import { DASHBOARD_NS, dashboardList } from '~/utils/admin-dashboard.ts'

// /admin/auctions/ID/delete: deletes an upcoming auction (its prebids go back to their owners),
// after a confirmation in a dialog over the dashboard; see docs/decisions/012-admin-deletes.md.

export const handle = { i18n: [...DASHBOARD_NS] }

const route = confirmRoute({
  ns: DASHBOARD_NS,
  find: (id, { engine }) => auctionNamed(engine, id),
  texts: (t, auction) => ({
    title: t('delete.title', { title: auction?.title ?? '' }),
    description: !auction
      ? t('form.notFound')
      : auction.upcoming
        ? t('delete.textUpcoming', { count: auction.prebids })
        : t('delete.text'),
    confirm: t('delete.confirm'),
  }),
  run: ({ id, context }) => deleteAuction(context.engine, id),
  back: dashboardList,
  done: (t, auction) => t('delete.done', { title: auction?.title ?? '' }),
  failed: 'delete.failed',
})
export const loader = route.loader
export const action = route.action

export default function DeleteAuctionRoute() {
  return <ConfirmRoute returnFocusTo="auctions-heading" />
}

export { GeneralErrorBoundary as ErrorBoundary } from '~/components/error-boundary.tsx'
