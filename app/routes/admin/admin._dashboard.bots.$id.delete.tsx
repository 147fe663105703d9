import { deleteBot, getBotUsername } from '~/models/admin-bots.server.ts'
import { confirmRoute } from '~/services/confirm-route.server.ts'
import { DASHBOARD_NS, dashboardList } from '~/utils/admin-dashboard.ts'

// /admin/bots/ID/delete: deletes a bot after a confirmation in a dialog over the dashboard; its
// past bids stay under its name (docs/decisions/012-admin-deletes.md).

export const handle = { i18n: [...DASHBOARD_NS] }
const { loader, action } = confirmRoute({
  ns: DASHBOARD_NS,
  keys: 'deleteBot',
  find: (id) => getBotUsername(id),
  gone: 'bots.notFound',
  run: ({ id }) => deleteBot(id),
  back: dashboardList,
  returnFocusTo: 'bots-heading',
})
export { loader, action }
export { ConfirmRoute as default, ErrorBoundary } from '~/components/admin/confirm-route.tsx'
