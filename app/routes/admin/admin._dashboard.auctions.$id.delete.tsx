import { deleteAuction } from '~/models/admin-auctions.server.ts'
import { auctionConfirmRoute } from '~/services/confirm-route.server.ts'
import { DASHBOARD_NS } from '~/utils/admin-dashboard.ts'

// /admin/auctions/ID/delete: deletes an upcoming auction (its prebids go back to their owners),
// after a confirmation in a dialog over the dashboard; see docs/decisions/012-admin-deletes.md.

export const handle = { i18n: [...DASHBOARD_NS] }
const { loader, action } = auctionConfirmRoute('delete', ({ id, context }) =>
  deleteAuction(context.engine, id),
)
export { loader, action }
export { ConfirmRoute as default, ErrorBoundary } from '~/components/admin/confirm-route.tsx'
