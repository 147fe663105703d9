import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod'
import * as Tabs from '@radix-ui/react-tabs'
import { Form, Link, type FetcherWithComponents } from '@remix-run/react'
import { Check, Loader2, X } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Trans, useTranslation } from 'react-i18next'
import { FormError, InputField } from '~/components/ui/field.tsx'
import { showToast } from '~/components/toaster.tsx'
import { useAvailability, type AvailabilityState } from '~/utils/use-availability.ts'
import { loginSchema, registerFormSchema } from '~/validation/user.ts'
import { useIsPending } from '~/utils/use-is-pending.ts'

export type AuthTab = 'login' | 'register'
export type AuthActionData = { intent: AuthTab; result: SubmissionResult<string[]> }

type FormLike = typeof Form | FetcherWithComponents<unknown>['Form']

/**
 * The two tabs of the login page (docs/rules.md#accounts). The tab comes from the URL (`?tab=register`),
 * so the triggers are links that work without JavaScript; both forms post to /login.
 */
export function AuthTabs({
  tab,
  onTabChange,
  redirectTo,
  actionData,
  FormComponent = Form,
  busy,
  idPrefix = 'auth',
  submit,
}: {
  submit?: (formData: FormData) => void
  tab: AuthTab
  onTabChange?: (tab: AuthTab) => void
  redirectTo: string
  actionData?: AuthActionData | null
  FormComponent?: FormLike
  busy?: boolean
  idPrefix?: string
}) {
  const { t } = useTranslation()
  const query = (next: AuthTab) => {
    const params = new URLSearchParams()
    if (next === 'register') params.set('tab', 'register')
    if (redirectTo !== '/') params.set('redirectTo', redirectTo)
    const text = params.toString()
    return `/login${text ? `?${text}` : ''}`
  }
  return (
    <Tabs.Root
      value={tab}
      onValueChange={(value) => onTabChange?.(value as AuthTab)}
      activationMode="manual"
    >
      <Tabs.List
        aria-label={t('auth.title')}
        className="mb-5 grid grid-cols-2 rounded-lg bg-slate-100 p-1"
      >
        {(['login', 'register'] as const).map((value) => (
          <Tabs.Trigger key={value} value={value} asChild>
            <Link
              to={query(value)}
              replace
              preventScrollReset
              onClick={(event) => {
                if (onTabChange) {
                  event.preventDefault()
                  onTabChange(value)
                }
              }}
              className="rounded-md px-3 py-2 text-center text-sm font-semibold text-slate-700 data-[state=active]:bg-white data-[state=active]:text-slate-900 data-[state=active]:shadow"
            >
              {t(value === 'login' ? 'auth.loginTab' : 'auth.registerTab')}
            </Link>
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      <Tabs.Content value="login" forceMount hidden={tab !== 'login'}>
        <LoginForm
          FormComponent={FormComponent}
          redirectTo={redirectTo}
          lastResult={actionData?.intent === 'login' ? actionData.result : undefined}
          busy={busy}
          idPrefix={idPrefix}
        />
      </Tabs.Content>
      <Tabs.Content value="register" forceMount hidden={tab !== 'register'}>
        <RegisterForm
          FormComponent={FormComponent}
          redirectTo={redirectTo}
          lastResult={actionData?.intent === 'register' ? actionData.result : undefined}
          busy={busy}
          idPrefix={idPrefix}
          submit={submit}
        />
      </Tabs.Content>
    </Tabs.Root>
  )
}

function useFailureToast(lastResult: SubmissionResult<string[]> | undefined, title: string) {
  const { t } = useTranslation()
  useEffect(() => {
    const message = lastResult?.error?.['']?.[0]
    if (message) showToast({ type: 'error', title, description: t(message) })
  }, [lastResult, title, t])
}

function SubmitButton({ busy, children }: { busy?: boolean; children: string }) {
  const { t } = useTranslation()
  const submitting = useIsPending({ formAction: '/login', state: 'submitting' })
  const pending = busy || submitting
  return (
    <button
      type="submit"
      disabled={pending}
      className="flex w-full items-center justify-center gap-2 rounded-md bg-amber-700 px-4 py-2.5 font-semibold text-white hover:bg-amber-800 disabled:opacity-70"
    >
      {pending ? <Loader2 aria-hidden className="h-4 w-4 animate-spin" /> : null}
      {pending ? t('auth.submitting') : children}
    </button>
  )
}

function LoginForm({
  FormComponent,
  redirectTo,
  lastResult,
  busy,
  idPrefix,
}: {
  FormComponent: FormLike
  redirectTo: string
  lastResult?: SubmissionResult<string[]>
  busy?: boolean
  idPrefix: string
}) {
  const { t } = useTranslation()
  const [form, fields] = useForm({
    id: `${idPrefix}-login`,
    lastResult,
    constraint: getZodConstraint(loginSchema),
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: loginSchema }),
  })
  useFailureToast(lastResult, t('auth.loginFailed'))
  return (
    <FormComponent method="post" action="/login" {...getFormProps(form)} className="space-y-4">
      <input type="hidden" name="intent" value="login" />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <FormError errors={form.errors} />
      <InputField
        meta={fields.username}
        label={t('auth.usernameOrEmail')}
        autoComplete="username"
        id={`${idPrefix}-login-username`}
      />
      <InputField
        meta={fields.password}
        type="password"
        label={t('auth.password')}
        autoComplete="current-password"
        id={`${idPrefix}-login-password`}
      />
      <SubmitButton busy={busy}>{t('auth.loginButton')}</SubmitButton>
    </FormComponent>
  )
}

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

function RegisterForm({
  FormComponent,
  redirectTo,
  lastResult,
  busy,
  idPrefix,
  submit,
}: {
  submit?: (formData: FormData) => void
  FormComponent: FormLike
  redirectTo: string
  lastResult?: SubmissionResult<string[]>
  busy?: boolean
  idPrefix: string
}) {
  const { t } = useTranslation()
  const [username, setUsername] = useState('')
  const [email, setEmail] = useState('')
  const failed = t('validation.checkFailed')
  const usernameState = useAvailability('username', username, { failedMessage: failed })
  const emailState = useAvailability('email', email, { failedMessage: failed })
  const [form, fields] = useForm({
    id: `${idPrefix}-register`,
    lastResult,
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
  useFailureToast(lastResult, t('auth.registerFailed'))
  return (
    <FormComponent method="post" action="/login" {...getFormProps(form)} className="space-y-4">
      <input type="hidden" name="intent" value="register" />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <p className="rounded-md bg-amber-50 p-3 text-sm font-medium text-amber-900">
        {t('auth.freeBids')}
      </p>
      <FormError errors={form.errors} />
      <InputField
        meta={fields.username}
        label={t('auth.username')}
        autoComplete="username"
        hint={availabilityHint(usernameState, t('validation.checking'))}
        status={<AvailabilityIcon state={usernameState} />}
        id={`${idPrefix}-register-username`}
        onChange={(event) => setUsername(event.currentTarget.value)}
      />
      <InputField
        meta={fields.email}
        type="email"
        label={t('auth.email')}
        autoComplete="email"
        hint={availabilityHint(emailState, t('validation.checking'))}
        status={<AvailabilityIcon state={emailState} />}
        id={`${idPrefix}-register-email`}
        onChange={(event) => setEmail(event.currentTarget.value)}
      />
      <InputField
        meta={fields.password}
        type="password"
        label={t('auth.password')}
        autoComplete="new-password"
        id={`${idPrefix}-register-password`}
      />
      <InputField
        meta={fields.confirmPassword}
        type="password"
        label={t('auth.confirmPassword')}
        autoComplete="new-password"
        id={`${idPrefix}-register-confirm`}
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
      <SubmitButton busy={busy}>{t('auth.registerButton')}</SubmitButton>
    </FormComponent>
  )
}
