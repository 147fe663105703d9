import { type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { useActionData, useLocation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { AuctionForm } from '~/components/admin/dashboard-auction-form.tsx'
import { UrlDialog } from '~/components/admin/url-dialog.tsx'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { DomainError } from '~/utils/domain-error.ts'
import { createAuction } from '~/models/admin-auctions.server.ts'
import { getOpenAuctionPageOf } from '~/models/auction.server.ts'
import { refuseAdminForm, requireAdmin } from '~/services/admin.server.ts'
import { getFixedT } from '~/services/i18n.server.ts'
import { readAuctionForm } from '~/services/images/upload.server.ts'
import { redirectWithToast } from '~/services/toast.server.ts'
import { AUCTIONS_PER_PAGE, DASHBOARD_NS, dashboardHref } from '~/utils/admin-dashboard.ts'
import { auctionCreateSchema } from '~/validation/admin.ts'

// /admin/auctions/new: a new auction, a dialog over the dashboard. Once created, the dashboard
// opens at the table page that holds it.

export const handle = { i18n: [...DASHBOARD_NS] }

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request)
  return null
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireAdmin(request)
  const t = await getFixedT(request, [...DASHBOARD_NS, 'common'])
  const { submission, refused } = await readAuctionForm(request, auctionCreateSchema)
  if (refused) {
    const result = submission.reply({ fieldErrors: { image: [refused.key] } })
    return refuseAdminForm(t, refused.status, result, t('form.failed'))
  }
  if (submission.status !== 'success') {
    return refuseAdminForm(t, 400, submission.reply(), t('form.failed'))
  }
  let auction: Awaited<ReturnType<typeof createAuction>>
  try {
    auction = await createAuction(context.engine, submission.value)
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    const result = submission.reply({ formErrors: [error.key] })
    return refuseAdminForm(t, error.status, result, t('form.failed'))
  }
  const page = await getOpenAuctionPageOf(auction.id, AUCTIONS_PER_PAGE)
  const back = dashboardHref('', new URL(request.url).search, {
    page: page > 1 ? String(page) : null,
  })
  return redirectWithToast(back, {
    type: 'success',
    description: t('form.created', { title: auction.title }),
  })
}

export default function NewAuctionRoute() {
  const actionData = useActionData<typeof action>()
  const { search } = useLocation()
  const { t } = useTranslation(DASHBOARD_NS)
  const closeTo = dashboardHref('', search)
  return (
    <UrlDialog
      open
      wide
      closeTo={closeTo}
      title={t('form.createTitle')}
      returnFocusTo="auctions-heading"
    >
      <AuctionForm
        mode="create"
        action={dashboardHref('/auctions/new', search)}
        lastResult={actionData?.result}
        closeTo={closeTo}
      />
    </UrlDialog>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
