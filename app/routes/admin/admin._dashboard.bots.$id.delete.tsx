import { ConfirmRoute } from '~/components/admin/confirm-route.tsx'
import { deleteBot, getBotUsername } from '~/models/admin-bots.server.ts'
import { confirmRoute } from '~/services/confirm-route.server.ts'
import { DASHBOARD_NS, dashboardList } from '~/utils/admin-dashboard.ts'

// /admin/bots/ID/delete: deletes a bot after a confirmation in a dialog over the dashboard; its
// past bids stay under its name (docs/decisions/012-admin-deletes.md).

export const handle = { i18n: [...DASHBOARD_NS] }

const route = confirmRoute({
  ns: DASHBOARD_NS,
  find: (id) => getBotUsername(id),
  texts: (t, name) => ({
    title: t('bots.deleteTitle', { name: name ?? '' }),
    description: name === null ? t('bots.notFound') : t('bots.deleteText'),
    confirm: t('bots.deleteConfirm'),
  }),
  run: ({ id }) => deleteBot(id),
  back: dashboardList,
  done: (t, name) => t('bots.deleted', { name: name ?? '' }),
  failed: 'bots.deleteFailed',
})
export const loader = route.loader
export const action = route.action

export default function DeleteBotRoute() {
  return <ConfirmRoute returnFocusTo="bots-heading" />
}

export { GeneralErrorBoundary as ErrorBoundary } from '~/components/error-boundary.tsx'
