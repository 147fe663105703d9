import { getFormProps, type FormMetadata, type SubmissionResult } from '@conform-to/react'
import type { FetcherWithComponents, Form } from '@remix-run/react'
import { Loader2 } from 'lucide-react'
import { useEffect, type ReactNode } from 'react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { FormError } from '~/components/ui/field.tsx'
import { showToast } from '~/components/toaster.tsx'
import { useIsPending } from '~/utils/use-is-pending.ts'

// What the login page's two forms share (docs/rules.md#accounts): where they post, their
// form-level error, their button and the toast of a refusal. The forms: login-form.tsx,
// register-form.tsx; their tabs: auth-forms.tsx.

export type AuthTab = 'login' | 'register'
export type AuthActionData = { intent: AuthTab; result: SubmissionResult<string[]> }

export type FormLike = typeof Form | FetcherWithComponents<unknown>['Form']

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
export type AuthFormProps = {
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
export function AuthForm<Schema extends Record<string, unknown>>({
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
