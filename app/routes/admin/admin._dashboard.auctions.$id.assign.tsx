import { parseWithZod } from '@conform-to/zod'
import { type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { EditAuctionDialog } from '~/components/admin/edit-auction-dialog.tsx'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { assignBot, getBotUsername } from '~/models/admin-bots.server.ts'
import { getAuctionForEdit } from '~/models/admin-dashboard.server.ts'
import {
  adminIdParam,
  requireAdmin,
  requireAdminT,
  saveAdminForm,
} from '~/services/admin.server.ts'
import { redirectWithToast } from '~/services/toast.server.ts'
import { DASHBOARD_NS, dashboardUrl } from '~/utils/admin-dashboard.ts'
import { readForm } from '~/utils/form.server.ts'
import { botAssignSchema } from '~/validation/admin.ts'

// /admin/auctions/ID/assign: adds a bot, with a bid limit, to an auction, from its edit dialog,
// which stays open: the answer goes back to /admin/auctions/ID/edit. A refusal without JavaScript
// is shown here, in the same dialog.

export const handle = { i18n: [...DASHBOARD_NS] }

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireAdmin(request)
  return getAuctionForEdit(context.engine, params.id ?? '')
}

export async function action({ request, params }: ActionFunctionArgs) {
  const t = await requireAdminT(request, [...DASHBOARD_NS, 'common'])
  const auctionId = adminIdParam(params.id, t)
  const form = await readForm(request)
  const submission = parseWithZod(form, { schema: botAssignSchema })
  return saveAdminForm(t, submission, t('assign.failed'), async ({ botId, bidLimit }) => {
    await assignBot(auctionId, botId, bidLimit)
    const name = (await getBotUsername(botId)) ?? ''
    return redirectWithToast(
      dashboardUrl(request, `/auctions/${encodeURIComponent(auctionId)}/edit`),
      { type: 'success', description: t('assign.added', { name }) },
    )
  })
}

export default function AssignBotRoute() {
  const edit = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  return <EditAuctionDialog edit={edit} assignResult={actionData?.result} />
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
