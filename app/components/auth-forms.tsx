import { getFormProps, useForm, type FormMetadata, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod'
import * as Tabs from '@radix-ui/react-tabs'
import { Form, Link, type FetcherWithComponents } from '@remix-run/react'
import { Check, Loader2, X } from 'lucide-react'
import { useEffect, useState, type ComponentProps, type ReactNode } from 'react'
import { Trans } from 'react-i18next'
import { useTranslation } from '~/i18n/use-translation.ts'
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
  const forms = { FormComponent, redirectTo, busy, idPrefix }
  const resultOf = (intent: AuthTab) =>
    actionData?.intent === intent ? actionData.result : undefined
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
        <LoginForm {...forms} lastResult={resultOf('login')} />
      </Tabs.Content>
      <Tabs.Content value="register" forceMount hidden={tab !== 'register'}>
        <RegisterForm {...forms} lastResult={resultOf('register')} submit={submit} />
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

/** What both forms take: how they post (a page's Form or a fetcher's), where to go after. */
type AuthFormProps = {
  FormComponent: FormLike
  redirectTo: string
  lastResult?: SubmissionResult<string[]>
  busy?: boolean
  idPrefix: string
}

/** Each form's button and the title of the toast it shows when refused. */
const AUTH_TEXTS = {
  login: { submit: 'auth.loginButton', failed: 'auth.loginFailed' },
  register: { submit: 'auth.registerButton', failed: 'auth.registerFailed' },
} as const

/**
 * A form of the login page: it posts its `intent` and where to go after to /login, shows its
 * form-level error above its fields and, when it is refused, a toast.
 */
function AuthForm<Schema extends Record<string, unknown>>({
  form,
  intent,
  lead,
  children,
  FormComponent,
  redirectTo,
  lastResult,
  busy,
}: Omit<AuthFormProps, 'idPrefix'> & {
  form: FormMetadata<Schema, string[]>
  intent: AuthTab
  lead?: ReactNode
  children: ReactNode
}) {
  const { t } = useTranslation()
  useFailureToast(lastResult, t(AUTH_TEXTS[intent].failed))
  return (
    <FormComponent method="post" action="/login" {...getFormProps(form)} className="space-y-4">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      {lead}
      <FormError errors={form.errors} />
      {children}
      <SubmitButton busy={busy}>{t(AUTH_TEXTS[intent].submit)}</SubmitButton>
    </FormComponent>
  )
}

function LoginForm({ idPrefix, ...props }: AuthFormProps) {
  const { t } = useTranslation()
  const [form, fields] = useForm({
    id: `${idPrefix}-login`,
    lastResult: props.lastResult,
    constraint: getZodConstraint(loginSchema),
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: loginSchema }),
  })
  return (
    <AuthForm {...props} form={form} intent="login">
      <InputField
        meta={fields.username}
        label={t('auth.usernameOrEmail')}
        autoComplete="username"
      />
      <InputField
        meta={fields.password}
        type="password"
        label={t('auth.password')}
        autoComplete="current-password"
      />
    </AuthForm>
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

function RegisterForm({
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
