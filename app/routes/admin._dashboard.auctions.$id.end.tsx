import { type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { useActionData, useLoaderData, useLocation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { ConfirmDialog } from '~/components/admin/url-dialog.tsx'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { DomainError } from '~/utils/domain-error.ts'
import { endAuction } from '~/models/admin-auctions.server.ts'
import { getAuctionById } from '~/models/auction-live.server.ts'
import { adminIdParam, refuseConfirmation, requireAdmin } from '~/services/admin.server.ts'
import { getFixedT } from '~/services/i18n.server.ts'
import { redirectWithToast } from '~/services/toast.server.ts'
import { DASHBOARD_NS, dashboardHref, dashboardUrl } from '~/utils/admin-dashboard.ts'
import { readForm } from '~/utils/form.server.ts'

// /admin/auctions/ID/end: ends a live auction now, after a confirmation in a dialog over the
// dashboard; the last bidder wins.

export const handle = { i18n: [...DASHBOARD_NS] }

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireAdmin(request)
  const auction = await getAuctionById(context.engine, params.id ?? '')
  return { id: params.id ?? '', title: auction?.title ?? null }
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  await requireAdmin(request)
  const t = await getFixedT(request, [...DASHBOARD_NS, 'common'])
  const id = adminIdParam(params.id, t)
  await readForm(request)
  const title = (await getAuctionById(context.engine, id))?.title ?? ''
  try {
    await endAuction(context.engine, id)
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    return refuseConfirmation(t, error, t('end.failed'))
  }
  return redirectWithToast(dashboardUrl(request), {
    type: 'success',
    description: t('end.done', { title }),
  })
}

export default function EndAuctionRoute() {
  const auction = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { search } = useLocation()
  const { t } = useTranslation(DASHBOARD_NS)
  return (
    <ConfirmDialog
      title={t('end.title', { title: auction.title ?? '' })}
      description={auction.title === null ? t('form.notFound') : t('end.text')}
      error={actionData?.error}
      confirmLabel={t('end.confirm')}
      action={dashboardHref(`/auctions/${encodeURIComponent(auction.id)}/end`, search)}
      closeTo={dashboardHref('', search)}
      returnFocusTo="auctions-heading"
    />
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
