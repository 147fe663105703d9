import { useLoaderData, useLocation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { ConfirmRoute } from '~/components/admin/confirm-route.tsx'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { deleteBot, getBotUsername } from '~/models/admin-bots.server.ts'
import { confirmRoute } from '~/services/confirm-route.server.ts'
import { DASHBOARD_NS, dashboardHref, dashboardUrl } from '~/utils/admin-dashboard.ts'

// /admin/bots/ID/delete: deletes a bot after a confirmation in a dialog over the dashboard; its
// past bids stay under its name (docs/decisions/012-admin-deletes.md).

export const handle = { i18n: [...DASHBOARD_NS] }

const route = confirmRoute({
  ns: DASHBOARD_NS,
  find: (id) => getBotUsername(id),
  run: ({ id }) => deleteBot(id),
  back: (request) => dashboardUrl(request),
  done: (t, name) => t('bots.deleted', { name: name ?? '' }),
  failed: 'bots.deleteFailed',
})
export const loader = route.loader
export const action = route.action

export default function DeleteBotRoute() {
  const { thing: name } = useLoaderData<typeof loader>()
  const { search } = useLocation()
  const { t } = useTranslation(DASHBOARD_NS)
  return (
    <ConfirmRoute
      title={t('bots.deleteTitle', { name: name ?? '' })}
      description={name === null ? t('bots.notFound') : t('bots.deleteText')}
      confirmLabel={t('bots.deleteConfirm')}
      closeTo={dashboardHref('', search)}
      returnFocusTo="bots-heading"
    />
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
