import { parseWithZod } from '@conform-to/zod'
import { type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { useActionData, useLocation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { BotCreateForm, BotCreateFormSchema } from '~/components/admin/dashboard-bot-list.tsx'
import { UrlDialog } from '~/components/admin/url-dialog.tsx'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { createBot } from '~/models/admin-bots.server.ts'
import { requireAdmin, requireAdminT, saveAdminForm } from '~/services/admin.server.ts'
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
  const t = await requireAdminT(request, [...DASHBOARD_NS, 'common'])
  const form = await readForm(request)
  const submission = parseWithZod(form, { schema: BotCreateFormSchema })
  return saveAdminForm(t, submission, t('bots.failed'), async (value) => {
    const bot = await createBot({ ...value, username: null, isActive: true })
    return redirectWithToast(dashboardUrl(request), {
      type: 'success',
      description: t('bots.created', { name: bot.username }),
    })
  })
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
