import { type LoaderFunctionArgs } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from '~/i18n/use-translation.ts'
import {
  BotSettingsForm,
  BotSettingsFormSchema,
} from '~/components/admin/dashboard-bot-settings.tsx'
import { DashboardDialog } from '~/components/admin/dashboard-dialog.tsx'
import { getBotSettings, updateBotSettings } from '~/models/admin-bots.server.ts'
import { requireAdmin } from '~/services/guards.server.ts'
import { dashboardFormAction } from '~/services/dashboard-form.server.ts'
import { DASHBOARD_NS, type DashboardForm } from '~/utils/admin-dashboard.ts'

// /admin/bots/settings: the bots' settings, from the dashboard's card. With JavaScript the card
// posts here through a fetcher and stays in place; without, a refusal shows the form here, as a
// dialog over the dashboard.

export const handle = {
  i18n: [...DASHBOARD_NS],
  dashboardForm: 'botSettings' satisfies DashboardForm,
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request)
  return getBotSettings()
}

export const action = dashboardFormAction({
  schema: BotSettingsFormSchema,
  failed: 'botSettings.failed',
  save: async (value, { t }) => {
    await updateBotSettings(value)
    return { toast: t('botSettings.saved') }
  },
})

export default function BotSettingsRoute() {
  const settings = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { t } = useTranslation(DASHBOARD_NS)
  return (
    <DashboardDialog
      path="/bots/settings"
      title={t('botSettings.heading')}
      returnFocusTo="bot-settings-heading"
    >
      {({ action }) => (
        <BotSettingsForm settings={settings} action={action} lastResult={actionData?.result} />
      )}
    </DashboardDialog>
  )
}

export { GeneralErrorBoundary as ErrorBoundary } from '~/components/error-boundary.tsx'
