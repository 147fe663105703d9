import {
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  useForm,
  type FieldMetadata,
  type SubmissionResult,
} from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod'
import { Form } from '@remix-run/react'

import type { ReactNode } from 'react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { AdminField } from '~/components/admin/admin-field.tsx'
import { adminErrorKeys } from '~/components/admin/form-helpers.ts'
import { ControlField, FormError, controlClass } from '~/components/ui/field.tsx'
import { supportedLanguages } from '~/i18n/config.ts'
import { currencies, settingsSchema, WIN_LIMIT_MAX } from '~/validation/admin-settings.ts'
import { useIsPending } from '~/utils/use-is-pending.ts'
import { SaveButton } from '~/components/ui/button.tsx'
import type { PublicSettings } from '~/models/settings.server.ts'

/** The form edits exactly the settings every page reads. */
export type SettingsValues = PublicSettings

/**
 * The checkbox's hidden "false" comes first, so an unticked box is sent too (the schema reads
 * an absent value as "unchanged"); the action keeps the last value sent.
 */
export function normalizeSwitches(form: FormData) {
  for (const name of ['discloseHouseBids', 'freeBidsNeedPhone']) {
    const sent = form.getAll(name).map(String)
    form.set(name, sent.includes('true') ? 'true' : 'false')
  }
  return form
}

/** The settings form: docs/rules.md#settings. */
export function SettingsForm({
  settings,
  lastResult,
}: {
  settings: SettingsValues
  lastResult?: SubmissionResult<string[]>
}) {
  const { t } = useTranslation(['admin-settings', 'admin', 'common', 'telegram'])
  const [form, fields] = useForm({
    id: 'settings',
    lastResult,
    constraint: getZodConstraint(settingsSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    defaultValue: {
      ...settings,
      discloseHouseBids: settings.discloseHouseBids ? 'true' : undefined,
      freeBidsNeedPhone: settings.freeBidsNeedPhone ? 'true' : undefined,
      winLimit: String(settings.winLimit),
    },
    onValidate: ({ formData }) =>
      parseWithZod(normalizeSwitches(formData), { schema: settingsSchema }),
  })
  const saving = useIsPending({ intent: 'save', state: 'submitting' })
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-6">
      <input type="hidden" name="intent" value="save" />
      <FormError errors={adminErrorKeys(form.errors)} />
      <p className="text-sm text-slate-700">{t('required')}</p>

      <Fieldset legend={t('sections.site')}>
        <AdminField meta={fields.siteName} label={`${t('fields.siteName')} *`} />
        <ControlField
          id={fields.language.id}
          label={`${t('fields.language')} *`}
          error={adminErrorKeys(fields.language.errors)?.[0]}
        >
          <select {...getSelectProps(fields.language)} className={controlClass}>
            {supportedLanguages.map((lng) => (
              <option key={lng} value={lng} lang={lng}>
                {t(`common:language.names.${lng}`)}
              </option>
            ))}
          </select>
        </ControlField>
      </Fieldset>

      <Fieldset legend={t('sections.money')} hint={t('fields.currencyHint')}>
        <ControlField
          id={fields.currency.id}
          label={`${t('fields.currency')} *`}
          error={adminErrorKeys(fields.currency.errors)?.[0]}
        >
          <select
            {...getSelectProps(fields.currency)}
            className={controlClass}
            onChange={(event) => {
              const symbol = currencies.find((c) => c.currency === event.currentTarget.value)
              if (symbol) form.update({ name: fields.currencySymbol.name, value: symbol.symbol })
            }}
          >
            {currencies.map(({ currency, symbol }) => (
              <option key={currency} value={currency}>
                {t('fields.currencyOption', { currency, symbol })}
              </option>
            ))}
          </select>
        </ControlField>
        <AdminField
          meta={fields.currencySymbol}
          label={`${t('fields.currencySymbol')} *`}
          hint={t('fields.currencySymbolHint')}
        />
      </Fieldset>

      <Fieldset legend={t('sections.texts')}>
        <div className="sm:col-span-2">
          <AdminField meta={fields.headerTagline} label={t('fields.headerTagline')} />
        </div>
        <ControlField
          id={fields.footerDescription.id}
          label={t('fields.footerDescription')}
          wide
          error={adminErrorKeys(fields.footerDescription.errors)?.[0]}
        >
          <textarea
            {...getTextareaProps(fields.footerDescription)}
            rows={4}
            className={controlClass}
          />
        </ControlField>
      </Fieldset>

      <Fieldset legend={t('sections.contacts')}>
        <AdminField meta={fields.contactAddress} label={t('fields.contactAddress')} />
        <AdminField
          meta={fields.contactPhone}
          type="tel"
          label={t('fields.contactPhone')}
          inputMode="tel"
        />
        <AdminField
          meta={fields.contactTelegram}
          label={t('fields.contactTelegram')}
          placeholder="@username"
        />
        <AdminField meta={fields.contactEmail} type="email" label={t('fields.contactEmail')} />
      </Fieldset>

      <Fieldset legend={t('sections.fairness')}>
        <Switch
          meta={fields.discloseHouseBids}
          label={t('fields.discloseHouseBids')}
          hint={t('fields.discloseHouseBidsHint')}
        />
      </Fieldset>

      <Fieldset legend={t('sections.fairPlay')}>
        <AdminField
          meta={fields.winLimit}
          type="number"
          inputMode="numeric"
          min={0}
          max={WIN_LIMIT_MAX}
          step={1}
          label={t('fields.winLimit')}
          hint={t('fields.winLimitHint')}
        />
      </Fieldset>

      <Fieldset legend={t('telegram:adminSettings.section')}>
        <Switch
          meta={fields.freeBidsNeedPhone}
          label={t('telegram:adminSettings.freeBidsNeedPhone')}
          hint={t('telegram:adminSettings.freeBidsNeedPhoneHint')}
        />
      </Fieldset>

      <div className="flex justify-end">
        <SaveButton pending={saving}>{t('save')}</SaveButton>
      </div>
    </Form>
  )
}

/** A switch whose hidden "false" comes first (normalizeSwitches). */
function Switch({
  meta,
  label,
  hint,
}: {
  meta: FieldMetadata<unknown>
  label: string
  hint: string
}) {
  return (
    <div className="flex items-start gap-3 sm:col-span-2">
      <input type="hidden" name={meta.name} value="false" />
      <input
        {...getInputProps(meta, { type: 'checkbox', value: 'true' })}
        aria-describedby={`${meta.id}-hint`}
        className="mt-1 h-5 w-5 shrink-0 accent-amber-700"
      />
      <div className="space-y-1">
        <label htmlFor={meta.id} className="block font-medium text-slate-900">
          {label}
        </label>
        <p id={`${meta.id}-hint`} className="text-sm text-slate-700">
          {hint}
        </p>
      </div>
    </div>
  )
}

function Fieldset({
  legend,
  hint,
  children,
}: {
  legend: string
  hint?: string
  children: ReactNode
}) {
  return (
    <fieldset className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <legend className="px-1 text-lg font-semibold">{legend}</legend>
      {hint ? <p className="mb-3 text-sm text-slate-700">{hint}</p> : null}
      <div className="grid gap-4 sm:grid-cols-2">{children}</div>
    </fieldset>
  )
}
