import { parseWithZod } from '@conform-to/zod'
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { useActionData, useLoaderData, useNavigate, useSubmit } from '@remix-run/react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { AuthTabs, type AuthActionData, type AuthTab } from '~/components/auth-forms.tsx'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { FREE_BIDS } from '~/models/user.server.ts'
import { getFixedT } from '~/i18n/i18next.server.ts'
import { onboardingCookie } from '~/services/onboarding.server.ts'
import { logIn } from '~/services/login.server.ts'
import { register } from '~/services/registration.server.ts'
import { requireAnonymous } from '~/services/guards.server.ts'
import { createToastHeaders } from '~/services/toast.server.ts'
import { getEnv } from '~/utils/env.server.ts'
import { combineHeaders, safeRedirect } from '~/utils/http.ts'
import { useHydrated } from '~/utils/hooks.ts'
import { loginSchema, registerFormServerSchema } from '~/validation/user.ts'
import { readForm } from '~/utils/form.server.ts'
import { useIsPending } from '~/utils/use-is-pending.ts'
import { titleMeta } from '~/utils/meta.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url)
  const redirectTo = safeRedirect(url.searchParams.get('redirectTo'))
  await requireAnonymous(request, afterLogin(redirectTo))
  const tab: AuthTab = url.searchParams.get('tab') === 'register' ? 'register' : 'login'
  const t = await getFixedT(request)
  return { tab, redirectTo, title: t('auth.title') }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request)
  const intent = form.get('intent')
  const redirectTo = afterLogin(safeRedirect(form.get('redirectTo')))
  const t = await getFixedT(request)
  const tooMany = (seconds: number) => t('auth.tooManyAttempts', { seconds })

  if (intent === 'login') {
    const submission = parseWithZod(form, { schema: loginSchema })
    if (submission.status !== 'success') {
      return data<AuthActionData>({ intent, result: submission.reply() }, { status: 400 })
    }
    const outcome = await logIn(request, context, submission.value)
    if (!outcome.ok) {
      const result =
        outcome.status === 429
          ? submission.reply({ formErrors: [tooMany(outcome.seconds)] })
          : submission.reply({ formErrors: [outcome.message], hideFields: ['password'] })
      return data<AuthActionData>({ intent, result }, { status: outcome.status })
    }
    const toast = await createToastHeaders({
      type: 'success',
      description: t('auth.welcomeBack', { username: submission.value.username }),
    })
    return redirect(redirectTo, {
      headers: combineHeaders({ 'Set-Cookie': outcome.cookie }, toast),
    })
  }

  if (intent === 'register') {
    const submission = parseWithZod(form, { schema: registerFormServerSchema })
    const hideFields = ['password', 'confirmPassword']
    if (submission.status !== 'success') {
      return data<AuthActionData>(
        { intent, result: submission.reply({ hideFields }) },
        { status: 400 },
      )
    }
    const outcome = await register(request, context, submission.value)
    if (!outcome.ok) {
      const result =
        outcome.status === 429
          ? submission.reply({ formErrors: [tooMany(outcome.seconds)] })
          : submission.reply({ fieldErrors: { [outcome.field]: [outcome.message] }, hideFields })
      return data<AuthActionData>({ intent, result }, { status: outcome.status })
    }
    const toast = await createToastHeaders({
      type: 'success',
      title: t('auth.registered'),
      description: t(
        outcome.freeBidsOnPhone ? 'auth.registeredTextOnPhone' : 'auth.registeredText',
        {
          count: FREE_BIDS,
        },
      ),
    })
    return redirect(redirectTo, {
      headers: combineHeaders(
        { 'Set-Cookie': outcome.cookie },
        { 'Set-Cookie': await onboardingCookie(getEnv().NODE_ENV === 'production') },
        toast,
      ),
    })
  }

  throw data(t('api.invalid'), { status: 400 })
}

/** Where a login or registration goes: back where it came from, never to the login page. */
function afterLogin(redirectTo: string) {
  return redirectTo === '/login' ? '/' : redirectTo
}

export default function LoginRoute() {
  const { t } = useTranslation()
  const { tab, redirectTo } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const navigate = useNavigate()
  const submit = useSubmit()
  const hydrated = useHydrated()
  const pending = useIsPending({ formAction: '/login', state: 'submitting' })
  const current: AuthTab = actionData && 'intent' in actionData ? actionData.intent : tab
  return (
    <section className="mx-auto max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
      <h1 className="mb-5 text-2xl font-bold">{t('auth.title')}</h1>
      <AuthTabs
        tab={current}
        redirectTo={redirectTo}
        actionData={actionData && 'intent' in actionData ? actionData : null}
        onTabChange={(next) => {
          const params = new URLSearchParams()
          if (next === 'register') params.set('tab', 'register')
          if (redirectTo !== '/') params.set('redirectTo', redirectTo)
          navigate(`/login${params.size ? `?${params}` : ''}`, {
            replace: true,
            preventScrollReset: true,
          })
        }}
        busy={pending}
        submit={
          hydrated
            ? (formData) => submit(formData, { method: 'post', action: '/login' })
            : undefined
        }
        idPrefix="page"
      />
    </section>
  )
}

export const meta = titleMeta

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
