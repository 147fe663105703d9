import {
  getFormProps,
  getInputProps,
  getSelectProps,
  useForm,
  type SubmissionResult,
} from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod'
import { Form } from '@remix-run/react'
import { useState } from 'react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { Field, InputField, SelectField } from '~/components/ui/field.tsx'
import type { UserView } from '~/models/user-view.server.ts'
import { formatDate } from '~/utils/dates.ts'
import { useHydrated } from '~/utils/hooks.ts'
import {
  latestAdultBirthDate,
  normalizePhoneInput,
  PHONE_PREFIX,
  profileSchema,
} from '~/validation/user.ts'
import { useIsPending } from '~/utils/use-is-pending.ts'
import { FormActions } from '~/components/ui/form-actions.tsx'
import { GenderOptions } from '~/components/profile/gender-options.tsx'

/**
 * The profile's edit form (/profile?edit=1), a plain post to /profile; `lastResult` is a failed
 * save's answer, which shows its errors on the fields.
 */
export function ProfileForm({
  user,
  lastResult,
}: {
  user: UserView
  lastResult: SubmissionResult<string[]> | undefined
}) {
  const { t } = useTranslation()
  const hydrated = useHydrated()
  const [phone, setPhone] = useState(user.phone ?? PHONE_PREFIX)
  const [form, fields] = useForm({
    id: 'profile',
    lastResult,
    constraint: getZodConstraint(profileSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    defaultValue: {
      firstName: user.firstName ?? '',
      lastName: user.lastName ?? '',
      email: user.email,
      phone: user.phone ?? PHONE_PREFIX,
      dateOfBirth: user.dateOfBirth ?? '',
      gender: user.gender ?? '',
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: profileSchema }),
  })
  const saving = useIsPending({ formAction: '/profile', state: 'submitting' })
  const phoneProps = getInputProps(fields.phone, { type: 'tel' })
  const genderError = fields.gender.errors?.[0]
  return (
    <Form method="post" action="/profile" {...getFormProps(form)} className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <ReadOnly label={t('profile.username')} value={user.username} />
        <ReadOnly
          label={t('profile.bidBalance')}
          value={t('profile.bidsCount', { count: user.bidBalance })}
        />
        <InputField
          meta={fields.firstName}
          label={`${t('completeProfile.firstName')} *`}
          autoComplete="given-name"
        />
        <InputField
          meta={fields.lastName}
          label={`${t('completeProfile.lastName')} *`}
          autoComplete="family-name"
        />
        <InputField
          meta={fields.email}
          type="email"
          label={`${t('profile.email')} *`}
          autoComplete="email"
        />
        <Field
          label={t('completeProfile.phone')}
          autoComplete="tel"
          inputMode="tel"
          placeholder="+996XXXXXXXXX"
          hint={t('profile.phoneHint')}
          errors={fields.phone.errors}
          {...phoneProps}
          {...(hydrated
            ? {
                defaultValue: undefined,
                value: phone,
                onChange: (event: React.ChangeEvent<HTMLInputElement>) =>
                  setPhone(normalizePhoneInput(event.currentTarget.value)),
              }
            : {})}
        />
        <InputField
          meta={fields.dateOfBirth}
          type="date"
          label={t('completeProfile.dateOfBirth')}
          hint={t('completeProfile.adultHint')}
          max={latestAdultBirthDate(new Date())}
        />
        <SelectField
          label={t('completeProfile.gender')}
          error={genderError}
          {...getSelectProps(fields.gender)}
        >
          <GenderOptions />
        </SelectField>
      </div>
      <p className="text-sm text-slate-600">
        {t('profile.registered')}: {formatDate(user.createdAt)}
      </p>
      <FormActions
        cancelTo="/profile"
        cancelLabel={t('profile.cancel')}
        saveLabel={t('profile.save')}
        saving={saving}
      />
    </Form>
  )
}

/** A value the profile form shows but does not let the user change. */
function ReadOnly({ label, value }: { label: string; value: string }) {
  return (
    <div className="space-y-1">
      <p className="text-sm font-medium text-slate-800">{label}</p>
      <p className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-slate-800">
        {value}
      </p>
    </div>
  )
}
