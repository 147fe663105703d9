import { type ActionFunctionArgs } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { EditAuctionDialog } from '~/components/admin/edit-auction-dialog.tsx'
import { updateAuction } from '~/models/admin-auctions.server.ts'
import { saveAuctionForm } from '~/services/admin-auction-form.server.ts'
import { adminIdParam } from '~/services/admin.server.ts'
import { requireAdminT } from '~/services/guards.server.ts'
import { auctionEditLoader } from '~/services/dashboard-form.server.ts'
import { redirectWithToast } from '~/services/toast.server.ts'
import { DASHBOARD_NS, dashboardUrl } from '~/utils/admin-dashboard.ts'
import { auctionUpdateSchema } from '~/validation/admin-auctions.ts'

// /admin/auctions/ID/edit: an auction's fields and its bots, a dialog over the dashboard. This
// route saves the fields; the bots have their own routes (….assign, ….unassign). A finished or
// unknown auction is said so in the dialog.

export const handle = { i18n: [...DASHBOARD_NS] }

export const loader = auctionEditLoader

export async function action({ request, params, context }: ActionFunctionArgs) {
  const t = await requireAdminT(request, [...DASHBOARD_NS, 'common'])
  const id = adminIdParam(params.id, t)
  return saveAuctionForm(request, t, auctionUpdateSchema, async (value) => {
    const auction = await updateAuction(context.engine, id, value)
    return redirectWithToast(dashboardUrl(request), {
      type: 'success',
      description: t('form.saved', { title: auction.title }),
    })
  })
}

export default function EditAuctionRoute() {
  const edit = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  return <EditAuctionDialog edit={edit} formResult={actionData?.result} />
}

export { GeneralErrorBoundary as ErrorBoundary } from '~/components/error-boundary.tsx'
