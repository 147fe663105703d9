import { useActionData, useLoaderData } from '@remix-run/react'
import { EditAuctionDialog } from '~/components/admin/edit-auction-dialog.tsx'
import { assignBot, getBotUsername } from '~/models/admin-bots.server.ts'
import { auctionEditLoader, dashboardFormAction } from '~/services/dashboard-form.server.ts'
import { DASHBOARD_NS } from '~/utils/admin-dashboard.ts'
import { botAssignSchema } from '~/validation/admin-bots.ts'

// /admin/auctions/ID/assign: adds a bot, with a bid limit, to an auction, from its edit dialog,
// which stays open: the answer goes back to /admin/auctions/ID/edit. A refusal without JavaScript
// is shown here, in the same dialog.

export const handle = { i18n: [...DASHBOARD_NS] }

export const loader = auctionEditLoader

export const action = dashboardFormAction({
  schema: botAssignSchema,
  failed: 'assign.failed',
  withId: true,
  save: async ({ botId, bidLimit }, { t, id }) => {
    await assignBot(id, botId, bidLimit)
    const name = (await getBotUsername(botId)) ?? ''
    return { toast: t('assign.added', { name }), to: `/auctions/${encodeURIComponent(id)}/edit` }
  },
})

export default function AssignBotRoute() {
  const edit = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  return <EditAuctionDialog edit={edit} assignResult={actionData?.result} />
}

export { GeneralErrorBoundary as ErrorBoundary } from '~/components/error-boundary.tsx'
