import { getInputProps, type FieldMetadata } from '@conform-to/react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { AdminField } from '~/components/admin/admin-field.tsx'
import { LOCK_AFTER_MAX_MINUTES } from '~/validation/admin-auctions.ts'

// The fair-play settings of an auction's create and edit forms (docs/rules.md#fair-play-auctions):
// "beginners only" and "closes to new bidders after N minutes". They may change only before the
// auction starts; after, they are shown disabled and not sent, which the rules read as
// "unchanged" (app/validation/admin-auctions.ts). The checkbox's hidden "false" comes first, so
// an unticked box is sent too; a ticked one sends both, and "true" wins.

export function FairPlayFields({
  beginnerOnly,
  lockAfterMinutes,
  started,
}: {
  beginnerOnly: FieldMetadata<unknown>
  lockAfterMinutes: FieldMetadata<unknown>
  /** Live (or finished): shown, not editable. */
  started: boolean
}) {
  const { t } = useTranslation(['admin-dashboard', 'admin'])
  const hintId = `${beginnerOnly.id}-hint`
  return (
    <fieldset className="space-y-3 rounded-lg border border-slate-200 p-4">
      <legend className="px-1 font-semibold">{t('form.fairPlay')}</legend>
      {started ? <p className="text-sm text-slate-700">{t('form.fairPlayStarted')}</p> : null}
      <div className="flex items-start gap-3">
        {started ? null : <input type="hidden" name={beginnerOnly.name} value="false" />}
        <input
          {...getInputProps(beginnerOnly, { type: 'checkbox', value: 'true' })}
          disabled={started}
          aria-describedby={hintId}
          className="mt-1 h-5 w-5 shrink-0 accent-amber-700"
        />
        <div className="space-y-1">
          <label htmlFor={beginnerOnly.id} className="block font-medium text-slate-900">
            {t('form.beginnerOnly')}
          </label>
          <p id={hintId} className="text-sm text-slate-700">
            {t('form.beginnerOnlyHint')}
          </p>
        </div>
      </div>
      <AdminField
        meta={lockAfterMinutes}
        type="number"
        inputMode="numeric"
        min={1}
        max={LOCK_AFTER_MAX_MINUTES}
        step={1}
        disabled={started}
        label={t('form.lockAfterMinutes')}
        hint={t('form.lockAfterMinutesHint', { max: LOCK_AFTER_MAX_MINUTES })}
      />
    </fieldset>
  )
}
