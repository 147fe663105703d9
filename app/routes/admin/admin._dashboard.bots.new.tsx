import { type LoaderFunctionArgs } from '@remix-run/node'
import { useActionData } from '@remix-run/react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { BotCreateForm, BotCreateFormSchema } from '~/components/admin/dashboard-bot-list.tsx'
import { DashboardDialog } from '~/components/admin/dashboard-dialog.tsx'
import { createBot } from '~/models/admin-bots.server.ts'
import { requireAdmin } from '~/services/guards.server.ts'
import { dashboardFormAction } from '~/services/dashboard-form.server.ts'
import { DASHBOARD_NS, type DashboardForm } from '~/utils/admin-dashboard.ts'

// /admin/bots/new: a new bot, from the form under the dashboard's bot list. With JavaScript that
// form posts here through a fetcher and stays in place; without, a refusal shows the form here, as
// a dialog over the dashboard.

export const handle = {
  i18n: [...DASHBOARD_NS],
  dashboardForm: 'createBot' satisfies DashboardForm,
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request)
  return null
}

export const action = dashboardFormAction({
  schema: BotCreateFormSchema,
  failed: 'bots.failed',
  save: async (value, { t }) => {
    const bot = await createBot({ ...value, username: null, isActive: true })
    return { toast: t('bots.created', { name: bot.username }) }
  },
})

export default function NewBotRoute() {
  const actionData = useActionData<typeof action>()
  const { t } = useTranslation(DASHBOARD_NS)
  return (
    <DashboardDialog path="/bots/new" title={t('bots.createHeading')} returnFocusTo="bots-heading">
      {({ action }) => <BotCreateForm action={action} lastResult={actionData?.result} />}
    </DashboardDialog>
  )
}

export { GeneralErrorBoundary as ErrorBoundary } from '~/components/error-boundary.tsx'
