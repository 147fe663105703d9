import { parseWithZod } from '@conform-to/zod'
import { type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { useActionData, useLoaderData, useLocation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import {
  BotSettingsForm,
  BotSettingsFormSchema,
} from '~/components/admin/dashboard-bot-settings.tsx'
import { UrlDialog } from '~/components/admin/url-dialog.tsx'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { getBotSettings, updateBotSettings } from '~/models/admin-bots.server.ts'
import { requireAdmin, requireAdminT, saveAdminForm } from '~/services/admin.server.ts'
import { redirectWithToast } from '~/services/toast.server.ts'
import {
  DASHBOARD_NS,
  dashboardHref,
  dashboardUrl,
  type DashboardForm,
} from '~/utils/admin-dashboard.ts'
import { readForm } from '~/utils/form.server.ts'

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

export async function action({ request }: ActionFunctionArgs) {
  const t = await requireAdminT(request, [...DASHBOARD_NS, 'common'])
  const form = await readForm(request)
  const submission = parseWithZod(form, { schema: BotSettingsFormSchema })
  return saveAdminForm(t, submission, t('botSettings.failed'), async (value) => {
    await updateBotSettings(value)
    return redirectWithToast(dashboardUrl(request), {
      type: 'success',
      description: t('botSettings.saved'),
    })
  })
}

export default function BotSettingsRoute() {
  const settings = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { search } = useLocation()
  const { t } = useTranslation(DASHBOARD_NS)
  return (
    <UrlDialog
      open
      closeTo={dashboardHref('', search)}
      title={t('botSettings.heading')}
      returnFocusTo="bot-settings-heading"
    >
      <BotSettingsForm
        settings={settings}
        action={dashboardHref('/bots/settings', search)}
        lastResult={actionData?.result}
      />
    </UrlDialog>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
