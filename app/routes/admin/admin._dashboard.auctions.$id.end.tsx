import { ConfirmRoute } from '~/components/admin/confirm-route.tsx'
import { endAuction } from '~/models/admin-auctions.server.ts'
import { auctionNamed } from '~/models/admin-dashboard.server.ts'
import { confirmRoute } from '~/services/confirm-route.server.ts'
import { DASHBOARD_NS, dashboardList } from '~/utils/admin-dashboard.ts'

// /admin/auctions/ID/end: ends a live auction now, after a confirmation in a dialog over the
// dashboard; the last bidder wins.

export const handle = { i18n: [...DASHBOARD_NS] }

const route = confirmRoute({
  ns: DASHBOARD_NS,
  find: (id, { engine }) => auctionNamed(engine, id),
  texts: (t, auction) => ({
    title: t('end.title', { title: auction?.title ?? '' }),
    description: auction ? t('end.text') : t('form.notFound'),
    confirm: t('end.confirm'),
  }),
  run: ({ id, context }) => endAuction(context.engine, id),
  back: dashboardList,
  done: (t, auction) => t('end.done', { title: auction?.title ?? '' }),
  failed: 'end.failed',
})
export const loader = route.loader
export const action = route.action

export default function EndAuctionRoute() {
  return <ConfirmRoute returnFocusTo="auctions-heading" />
}

export { GeneralErrorBoundary as ErrorBoundary } from '~/components/error-boundary.tsx'
