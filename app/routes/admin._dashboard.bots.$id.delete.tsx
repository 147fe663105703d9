import { type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { useActionData, useLoaderData, useLocation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { ConfirmDialog } from '~/components/admin/url-dialog.tsx'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { DomainError } from '~/utils/domain-error.ts'
import { deleteBot, getBotUsername } from '~/models/admin-bots.server.ts'
import { adminIdParam, refuseConfirmation, requireAdmin } from '~/services/admin.server.ts'
import { getFixedT } from '~/services/i18n.server.ts'
import { redirectWithToast } from '~/services/toast.server.ts'
import { DASHBOARD_NS, dashboardHref, dashboardUrl } from '~/utils/admin-dashboard.ts'
import { readForm } from '~/utils/form.server.ts'

// /admin/bots/ID/delete: deletes a bot after a confirmation in a dialog over the dashboard; its
// past bids stay under its name (docs/decisions/012-admin-deletes.md).

export const handle = { i18n: [...DASHBOARD_NS] }

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request)
  return { id: params.id ?? '', username: await getBotUsername(params.id ?? '') }
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireAdmin(request)
  const t = await getFixedT(request, [...DASHBOARD_NS, 'common'])
  const id = adminIdParam(params.id, t)
  await readForm(request)
  const name = (await getBotUsername(id)) ?? ''
  try {
    await deleteBot(id)
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    return refuseConfirmation(t, error, t('bots.deleteFailed'))
  }
  return redirectWithToast(dashboardUrl(request), {
    type: 'success',
    description: t('bots.deleted', { name }),
  })
}

export default function DeleteBotRoute() {
  const bot = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { search } = useLocation()
  const { t } = useTranslation(DASHBOARD_NS)
  return (
    <ConfirmDialog
      title={t('bots.deleteTitle', { name: bot.username ?? '' })}
      description={bot.username === null ? t('bots.notFound') : t('bots.deleteText')}
      error={actionData?.error}
      confirmLabel={t('bots.deleteConfirm')}
      action={dashboardHref(`/bots/${encodeURIComponent(bot.id)}/delete`, search)}
      closeTo={dashboardHref('', search)}
      returnFocusTo="bots-heading"
    />
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
