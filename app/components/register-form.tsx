import { useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod'
import { Link } from '@remix-run/react'
import { Check, Loader2, X } from 'lucide-react'
import { useState, type ComponentProps } from 'react'
import { Trans } from 'react-i18next'
import { useTranslation } from '~/i18n/use-translation.ts'
import { AuthForm, type AuthFormProps } from '~/components/auth-form-frame.tsx'
import { InputField } from '~/components/ui/field.tsx'
import { useAvailability, type AvailabilityState } from '~/utils/use-availability.ts'
import { registerFormSchema } from '~/validation/user.ts'

// The registration tab's form (docs/rules.md#registration): its username and email are checked
// live for being free.

function AvailabilityIcon({ state }: { state: AvailabilityState }) {
  if (state.state === 'checking')
    return <Loader2 aria-hidden className="h-4 w-4 animate-spin text-slate-500" />
  if (state.state === 'valid') return <Check aria-hidden className="h-4 w-4 text-emerald-600" />
  if (state.state === 'invalid') return <X aria-hidden className="h-4 w-4 text-red-600" />
  return null
}

function availabilityHint(state: AvailabilityState, checking: string) {
  if (state.state === 'checking') return <span aria-live="polite">{checking}</span>
  if (state.state === 'valid' || state.state === 'invalid') {
    return (
      <span
        aria-live="polite"
        className={state.state === 'valid' ? 'text-emerald-700' : 'text-red-700'}
      >
        {state.message}
      </span>
    )
  }
  return undefined
}

/** A registration input checked live for being free: the answer as its hint, with an icon. */
function AvailableField({
  check,
  ...props
}: ComponentProps<typeof InputField> & { check: 'username' | 'email' }) {
  const { t } = useTranslation()
  const [value, setValue] = useState('')
  const state = useAvailability(check, value, { failedMessage: t('validation.checkFailed') })
  return (
    <InputField
      {...props}
      hint={availabilityHint(state, t('validation.checking'))}
      status={<AvailabilityIcon state={state} />}
      onChange={(event) => setValue(event.currentTarget.value)}
    />
  )
}

/** The registration tab's form; `submit` sends it itself (the dialog's fetcher) when given. */
export function RegisterForm({
  idPrefix,
  submit,
  ...props
}: AuthFormProps & { submit?: (formData: FormData) => void }) {
  const { t } = useTranslation()
  const [form, fields] = useForm({
    id: `${idPrefix}-register`,
    lastResult: props.lastResult,
    constraint: getZodConstraint(registerFormSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: registerFormSchema }),
    // Checked here; the confirmation itself is not sent (docs/rules.md#registration).
    onSubmit: submit
      ? (event, { formData }) => {
          event.preventDefault()
          formData.delete('confirmPassword')
          submit(formData)
        }
      : undefined,
  })
  return (
    <AuthForm
      {...props}
      form={form}
      intent="register"
      lead={
        <p className="rounded-md bg-amber-50 p-3 text-sm font-medium text-amber-900">
          {t('auth.freeBids')}
        </p>
      }
    >
      <AvailableField
        check="username"
        meta={fields.username}
        label={t('auth.username')}
        autoComplete="username"
      />
      <AvailableField
        check="email"
        meta={fields.email}
        type="email"
        label={t('auth.email')}
        autoComplete="email"
      />
      <InputField
        meta={fields.password}
        type="password"
        label={t('auth.password')}
        autoComplete="new-password"
      />
      <InputField
        meta={fields.confirmPassword}
        type="password"
        label={t('auth.confirmPassword')}
        autoComplete="new-password"
      />
      <p className="text-xs text-slate-600">
        <Trans
          i18nKey="auth.agree"
          components={{
            terms: <Link to="/terms-of-service" className="underline" />,
            privacy: <Link to="/privacy-policy" className="underline" />,
          }}
        />
      </p>
    </AuthForm>
  )
}
