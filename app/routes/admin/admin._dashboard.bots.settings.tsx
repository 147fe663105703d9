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
import { DomainError } from '~/utils/domain-error.ts'
import { getBotSettings, updateBotSettings } from '~/models/admin-bots.server.ts'
import { refuseAdminForm, requireAdmin } from '~/services/admin.server.ts'
import { getFixedT } from '~/services/i18n.server.ts'
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
  await requireAdmin(request)
  const t = await getFixedT(request, [...DASHBOARD_NS, 'common'])
  const form = await readForm(request)
  const submission = parseWithZod(form, { schema: BotSettingsFormSchema })
  if (submission.status !== 'success') {
    return refuseAdminForm(t, 400, submission.reply(), t('botSettings.failed'))
  }
  try {
    await updateBotSettings(submission.value)
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    const result = submission.reply({ formErrors: [error.key] })
    return refuseAdminForm(t, error.status, result, t('botSettings.failed'))
  }
  return redirectWithToast(dashboardUrl(request), {
    type: 'success',
    description: t('botSettings.saved'),
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
