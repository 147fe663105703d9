import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod'
import { useFetcher } from '@remix-run/react'
import { Loader2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { AdminField } from '~/components/admin/admin-field.tsx'
import { adminErrorKeys, notRequired, submitButtonClass } from '~/components/admin/form-helpers.ts'
import { DashboardCard } from '~/components/admin/dashboard-card.tsx'
import { FormError } from '~/components/ui/field.tsx'
import { botSettingsSchema } from '~/validation/admin.ts'
import { useIsPending } from '~/utils/use-is-pending.ts'

// The bot settings of the dashboard. The form posts to its own route
// (admin._dashboard.bots.settings); with JavaScript through a fetcher, so a refusal shows where the
// admin typed, without it as a plain post.

/** The page always sends every setting; an unchecked box is "off", not "unchanged". */
export const BotSettingsFormSchema = botSettingsSchema.extend({
  enabled: botSettingsSchema.shape.enabled.unwrap(),
  minDelay: botSettingsSchema.shape.minDelay.unwrap(),
  maxDelay: botSettingsSchema.shape.maxDelay.unwrap(),
  activeBots: botSettingsSchema.shape.activeBots.unwrap(),
})

const constraint = notRequired(getZodConstraint(BotSettingsFormSchema), ['enabled'])

export type BotSettings = {
  enabled: boolean
  minDelay: number
  maxDelay: number
  activeBots: number
}

export function BotSettingsForm({
  settings,
  action,
  lastResult,
}: {
  settings: BotSettings
  action: string
  /** A refusal the server rendered (a post without JavaScript). */
  lastResult?: SubmissionResult<string[]>
}) {
  const { t } = useTranslation(['admin-dashboard', 'admin'])
  const fetcher = useFetcher<{ result: SubmissionResult<string[]> }>({ key: 'bot-settings' })
  // Busy while the post is on its way; the pages reload afterwards in the background.
  const busy = useIsPending({ fetcher, state: 'submitting' })
  const [form, fields] = useForm({
    id: 'bot-settings',
    lastResult: fetcher.data?.result ?? lastResult,
    constraint,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    defaultValue: {
      enabled: settings.enabled ? 'on' : '',
      minDelay: String(settings.minDelay),
      maxDelay: String(settings.maxDelay),
      activeBots: String(settings.activeBots),
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: BotSettingsFormSchema }),
  })
  return (
    <fetcher.Form
      method="post"
      action={action}
      preventScrollReset
      {...getFormProps(form)}
      className="space-y-4"
    >
      <FormError errors={adminErrorKeys(form.errors)} />
      <label className="flex items-center gap-2 font-medium">
        <input
          {...getInputProps(fields.enabled, { type: 'checkbox' })}
          className="h-4 w-4 accent-amber-700"
        />
        {t('botSettings.enabled')}
      </label>
      <div className="grid gap-4 sm:grid-cols-3">
        <AdminField
          meta={fields.minDelay}
          type="number"
          label={t('botSettings.minDelay')}
          hint={t('botSettings.delayHint')}
        />
        <AdminField
          meta={fields.maxDelay}
          type="number"
          label={t('botSettings.maxDelay')}
          hint={t('botSettings.delayHint')}
        />
        <AdminField
          meta={fields.activeBots}
          type="number"
          label={t('botSettings.activeBots')}
          hint={t('botSettings.activeHint')}
        />
      </div>
      <button type="submit" disabled={busy} className={submitButtonClass}>
        {busy ? <Loader2 aria-hidden className="h-4 w-4 animate-spin" /> : null}
        {t('botSettings.save')}
      </button>
    </fetcher.Form>
  )
}

/** The dashboard's card: the same form, in place. */
export function BotSettingsCard({ settings, action }: { settings: BotSettings; action: string }) {
  const { t } = useTranslation(['admin-dashboard', 'admin'])
  return (
    <DashboardCard id="bot-settings-heading" heading={t('botSettings.heading')}>
      <BotSettingsForm settings={settings} action={action} />
    </DashboardCard>
  )
}
