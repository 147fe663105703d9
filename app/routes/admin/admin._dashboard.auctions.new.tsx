import { type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { useActionData } from '@remix-run/react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { AuctionForm } from '~/components/admin/dashboard-auction-form.tsx'
import { DashboardDialog } from '~/components/admin/dashboard-dialog.tsx'
import { createAuction } from '~/models/admin-auctions.server.ts'
import { getOpenAuctionPageOf } from '~/models/auction-rows.server.ts'
import { saveAuctionForm } from '~/services/admin-auction-form.server.ts'
import { requireAdmin, requireAdminT } from '~/services/guards.server.ts'
import { redirectWithToast } from '~/services/toast.server.ts'
import { AUCTIONS_PER_PAGE, DASHBOARD_NS, dashboardHref } from '~/utils/admin-dashboard.ts'
import { auctionCreateSchema } from '~/validation/admin-auctions.ts'

// /admin/auctions/new: a new auction, a dialog over the dashboard. Once created, the dashboard
// opens at the table page that holds it.

export const handle = { i18n: [...DASHBOARD_NS] }

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request)
  return null
}

export async function action({ request, context }: ActionFunctionArgs) {
  const t = await requireAdminT(request, [...DASHBOARD_NS, 'common'])
  return saveAuctionForm(request, t, auctionCreateSchema, async (value) => {
    const auction = await createAuction(context.engine, value)
    const page = await getOpenAuctionPageOf(auction.id, AUCTIONS_PER_PAGE)
    const back = dashboardHref('', new URL(request.url).search, {
      page: page > 1 ? String(page) : null,
    })
    return redirectWithToast(back, {
      type: 'success',
      description: t('form.created', { title: auction.title }),
    })
  })
}

export default function NewAuctionRoute() {
  const actionData = useActionData<typeof action>()
  const { t } = useTranslation(DASHBOARD_NS)
  return (
    <DashboardDialog
      path="/auctions/new"
      wide
      title={t('form.createTitle')}
      returnFocusTo="auctions-heading"
    >
      {({ action, closeTo }) => (
        <AuctionForm
          mode="create"
          action={action}
          lastResult={actionData?.result}
          closeTo={closeTo}
        />
      )}
    </DashboardDialog>
  )
}

export { GeneralErrorBoundary as ErrorBoundary } from '~/components/error-boundary.tsx'
