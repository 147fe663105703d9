import { type ActionFunctionArgs } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { EditAuctionDialog } from '~/components/admin/edit-auction-dialog.tsx'
import { DomainError } from '~/utils/domain-error.ts'
import { getBotUsername, unassignBot } from '~/models/admin-bots.server.ts'
import { adminErrorText, adminIdParam } from '~/services/admin.server.ts'
import { requireAdminT } from '~/services/guards.server.ts'
import { refuseConfirmation } from '~/services/confirm-route.server.ts'
import { auctionEditLoader } from '~/services/dashboard-form.server.ts'
import { redirectWithToast } from '~/services/toast.server.ts'
import { DASHBOARD_NS, dashboardUrl } from '~/utils/admin-dashboard.ts'
import { readForm } from '~/utils/form.server.ts'

// /admin/auctions/ID/unassign: takes a bot (`botId`) off an auction, from its edit dialog, which
// stays open: the answer goes back to /admin/auctions/ID/edit. A refusal without JavaScript is
// shown here, in the same dialog.

export const handle = { i18n: [...DASHBOARD_NS] }

export const loader = auctionEditLoader

export async function action({ request, params }: ActionFunctionArgs) {
  const t = await requireAdminT(request, [...DASHBOARD_NS, 'common'])
  const auctionId = adminIdParam(params.id, t)
  const form = await readForm(request)
  // The bot is a hidden field the dialog wrote: one that is no id was not sent by it.
  const botId = adminIdParam(String(form.get('botId') ?? ''), t)
  const name = (await getBotUsername(botId)) ?? ''
  try {
    await unassignBot(auctionId, botId)
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    return refuseConfirmation(adminErrorText(t, error.key), error.status, t('assign.failed'))
  }
  return redirectWithToast(
    dashboardUrl(request, `/auctions/${encodeURIComponent(auctionId)}/edit`),
    { type: 'success', description: t('assign.removed', { name }) },
  )
}

export default function UnassignBotRoute() {
  const edit = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  return <EditAuctionDialog edit={edit} unassignError={actionData?.error} />
}

export { GeneralErrorBoundary as ErrorBoundary } from '~/components/error-boundary.tsx'
