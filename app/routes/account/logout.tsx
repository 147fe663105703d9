import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { Form, useActionData } from '@remix-run/react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { Button } from '~/components/ui/button.tsx'
import { destroyAllSessions, destroySession } from '~/services/auth.server.ts'
import { getFixedT } from '~/i18n/i18next.server.ts'
import { getOptionalUser, SessionsNotForgotten } from '~/services/session.server.ts'
import { createToastHeaders } from '~/services/toast.server.ts'
import { readForm } from '~/utils/form.server.ts'
import { combineHeaders } from '~/utils/http.ts'
import { Alert } from '~/components/ui/alert.tsx'
import { titleMeta } from '~/utils/meta.ts'

// Logging out deletes the Session row, so the cookie is worthless even if it was copied; with
// `scope=everywhere` (the profile's button) every session of the account goes, this one too.
// When the logout cannot be made certain (Redis refuses the "ended" marks), nothing is ended:
// the page says so with a 503 and offers to try again (app/services/auth.server.ts).
export async function action({ request, context }: ActionFunctionArgs) {
  const t = await getFixedT(request)
  const everywhere = (await readForm(request)).get('scope') === 'everywhere'
  const user = everywhere ? await getOptionalUser(request) : null
  let cookie: string
  try {
    cookie = user
      ? await destroyAllSessions(user.id, context.engine)
      : await destroySession(request, context.engine)
  } catch (error) {
    if (!(error instanceof SessionsNotForgotten)) throw error
    return data({ everywhere, message: t('auth.logoutRefused') }, { status: 503 })
  }
  return redirect(user ? '/login' : '/', {
    headers: combineHeaders(
      { 'Set-Cookie': cookie },
      await createToastHeaders({
        description: t(user ? 'auth.loggedOutEverywhere' : 'auth.loggedOut'),
      }),
    ),
  })
}

export async function loader({ request }: LoaderFunctionArgs) {
  const t = await getFixedT(request)
  return { title: t('auth.logoutTitle') }
}

/** The logout form: shown after a refused logout (or when /logout is opened by address). */
export default function LogoutRoute() {
  const refused = useActionData<typeof action>()
  const { t } = useTranslation()
  return (
    <section aria-labelledby="logout-title" className="mx-auto max-w-md space-y-4 py-8">
      <h1 id="logout-title" className="text-2xl font-bold">
        {t('auth.logoutTitle')}
      </h1>
      {refused ? <Alert size="base">{refused.message}</Alert> : null}
      <Form method="post" action="/logout">
        {refused?.everywhere ? <input type="hidden" name="scope" value="everywhere" /> : null}
        <Button size="lg">{refused ? t('auth.logoutRetry') : t('nav.logout')}</Button>
      </Form>
    </section>
  )
}

export const meta = titleMeta

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
