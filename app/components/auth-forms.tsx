import * as Tabs from '@radix-ui/react-tabs'
import { Form, Link } from '@remix-run/react'
import { useTranslation } from '~/i18n/use-translation.ts'
import type { AuthActionData, AuthTab, FormLike } from '~/components/auth-form-frame.tsx'
import { LoginForm } from '~/components/login-form.tsx'
import { RegisterForm } from '~/components/register-form.tsx'

export type { AuthActionData, AuthTab } from '~/components/auth-form-frame.tsx'

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
