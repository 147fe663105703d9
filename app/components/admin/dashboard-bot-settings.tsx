import { getInputProps, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint } from '@conform-to/zod'
import { useTranslation } from '~/i18n/use-translation.ts'
import { AdminField } from '~/components/admin/admin-field.tsx'
import { useFetcherForm } from '~/components/admin/fetcher-form.ts'
import { adminErrorKeys, notRequired } from '~/components/admin/form-helpers.ts'
import { DashboardCard } from '~/components/admin/dashboard-card.tsx'
import { FormError } from '~/components/ui/field.tsx'
import { botSettingsSchema } from '~/validation/admin-bots.ts'
import { SaveButton } from '~/components/ui/button.tsx'

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
  const { fetcher, busy, form, fields, formProps } = useFetcherForm({
    id: 'bot-settings',
    schema: BotSettingsFormSchema,
    lastResult,
    constraint,
    defaultValue: {
      enabled: settings.enabled ? 'on' : '',
      minDelay: String(settings.minDelay),
      maxDelay: String(settings.maxDelay),
      activeBots: String(settings.activeBots),
    },
  })
  return (
    <fetcher.Form action={action} {...formProps} className="space-y-4">
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
      <SaveButton pending={busy}>{t('botSettings.save')}</SaveButton>
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
