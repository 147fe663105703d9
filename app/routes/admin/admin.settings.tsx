import { AdminPageHeader } from '~/components/admin/page-header.tsx'
import { parseWithZod } from '@conform-to/zod'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { i18nRoute } from '~/utils/i18n-route.ts'
import { useTranslation } from '~/i18n/use-translation.ts'
import { normalizeSwitches, SettingsForm } from '~/components/admin/settings-form.tsx'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { saveSettings } from '~/services/settings-sync.server.ts'
import { todayFreeGrants } from '~/models/admin-users.server.ts'
import { getSettings } from '~/models/settings.server.ts'
import { requireAdminT } from '~/services/guards.server.ts'
import { freeBidsPerAddress, scaled } from '~/services/rate-limit.server.ts'
import { refuseForm } from '~/services/refuse-form.server.ts'
import { redirectWithToast } from '~/services/toast.server.ts'
import { settingsSchema } from '~/validation/admin-settings.ts'
import { readForm } from '~/utils/form.server.ts'
import { titleMeta } from '~/utils/meta.ts'

// /admin/settings (docs/rules.md#admin-settings): one form,
// validated by the same schema as PUT /api/admin/settings.

const NS = ['admin-settings', 'admin', 'telegram'] as const
const i18n = i18nRoute(NS)
export const handle = i18n.handle
export const clientLoader = i18n.clientLoader

export async function loader({ request }: LoaderFunctionArgs) {
  const t = await requireAdminT(request, NS)
  const [settings, freeGrantsToday] = await Promise.all([getSettings(), todayFreeGrants()])
  return {
    title: t('title'),
    // How many free-bid grants today, and how many registrations of one address get them a
    // day (docs/rules.md#registration): what the free-bids switch below is decided on.
    freeGrants: { today: freeGrantsToday, perAddress: scaled(freeBidsPerAddress().limit) },
    settings: {
      currency: settings.currency,
      currencySymbol: settings.currencySymbol,
      siteName: settings.siteName,
      language: settings.language,
      headerTagline: settings.headerTagline,
      footerDescription: settings.footerDescription,
      contactAddress: settings.contactAddress,
      contactPhone: settings.contactPhone,
      contactTelegram: settings.contactTelegram,
      contactEmail: settings.contactEmail,
      discloseHouseBids: settings.discloseHouseBids,
      freeBidsNeedPhone: settings.freeBidsNeedPhone,
      winLimit: settings.winLimit,
    },
  }
}

export const meta = titleMeta

export async function action({ request, context }: ActionFunctionArgs) {
  const t = await requireAdminT(request, [...NS, 'common'])
  const form = await readForm(request)
  if (form.get('intent') !== 'save') throw data(t('admin:errors.invalid'), { status: 400 })
  const submission = parseWithZod(normalizeSwitches(form), { schema: settingsSchema })
  if (submission.status !== 'success') {
    return refuseForm(submission.reply(), {
      status: 400,
      title: t('failed'),
      text: (key) => t(`admin:${key}`),
    })
  }
  await saveSettings(context.engine, submission.value)
  return redirectWithToast('/admin/settings', { type: 'success', description: t('saved') })
}

export default function AdminSettingsRoute() {
  const { settings, freeGrants } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { t } = useTranslation(NS)
  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <AdminPageHeader back={t('back')} title={t('title')} lead={t('intro')}>
        <p className="text-sm text-slate-700" data-testid="free-grants-today">
          {t('freeGrants.today', { grants: freeGrants.today })}{' '}
          {t('freeGrants.hint', {
            perAddress: freeGrants.perAddress,
            setting: t('telegram:adminSettings.freeBidsNeedPhone'),
          })}
        </p>
      </AdminPageHeader>
      {/* Saved values (trimmed, lowercased email) come back from the loader: start afresh. */}
      <SettingsForm
        key={JSON.stringify(settings)}
        settings={settings}
        lastResult={actionData?.result}
      />
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
