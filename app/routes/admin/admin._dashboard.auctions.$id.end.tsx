import { endAuction } from '~/models/admin-auctions.server.ts'
import { auctionConfirmRoute } from '~/services/confirm-route.server.ts'
import { DASHBOARD_NS } from '~/utils/admin-dashboard.ts'

// /admin/auctions/ID/end: ends a live auction now, after a confirmation in a dialog over the
// dashboard; the last bidder wins.

export const handle = { i18n: [...DASHBOARD_NS] }
const { loader, action } = auctionConfirmRoute('end', ({ id, context }) =>
  endAuction(context.engine, id),
)
export { loader, action }
export { ConfirmRoute as default, ErrorBoundary } from '~/components/admin/confirm-route.tsx'
