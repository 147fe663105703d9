import { parseWithZod } from '@conform-to/zod'
import { type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { useActionData, useLocation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { BotCreateForm, BotCreateFormSchema } from '~/components/admin/dashboard-bot-list.tsx'
import { UrlDialog } from '~/components/admin/url-dialog.tsx'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { DomainError } from '~/utils/domain-error.ts'
import { createBot } from '~/models/admin-bots.server.ts'
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

export async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request)
  const t = await getFixedT(request, [...DASHBOARD_NS, 'common'])
  const form = await readForm(request)
  const submission = parseWithZod(form, { schema: BotCreateFormSchema })
  if (submission.status !== 'success') {
    return refuseAdminForm(t, 400, submission.reply(), t('bots.failed'))
  }
  try {
    const bot = await createBot({ ...submission.value, username: null, isActive: true })
    return redirectWithToast(dashboardUrl(request), {
      type: 'success',
      description: t('bots.created', { name: bot.username }),
    })
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    const result = submission.reply({ formErrors: [error.key] })
    return refuseAdminForm(t, error.status, result, t('bots.failed'))
  }
}

export default function NewBotRoute() {
  const actionData = useActionData<typeof action>()
  const { search } = useLocation()
  const { t } = useTranslation(DASHBOARD_NS)
  return (
    <UrlDialog
      open
      closeTo={dashboardHref('', search)}
      title={t('bots.createHeading')}
      returnFocusTo="bots-heading"
    >
      <BotCreateForm action={dashboardHref('/bots/new', search)} lastResult={actionData?.result} />
    </UrlDialog>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
