import { redirect, type ActionFunctionArgs } from '@remix-run/node'
import { consentChoices, consentCookies, type ConsentChoice } from '~/services/consent.server.ts'
import { getEnv } from '~/utils/env.server.ts'
import { safeRedirect } from '~/utils/http.ts'
import { readForm } from '~/utils/form.server.ts'

// The cookie banner's buttons and the footer's cookie-settings button post here.
export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request)
  const choice = form.get('choice')
  const to = safeRedirect(form.get('redirectTo'))
  if (typeof choice !== 'string' || !(consentChoices as readonly string[]).includes(choice)) {
    return redirect(to)
  }
  const headers = new Headers()
  const cookies = consentCookies(
    choice as ConsentChoice,
    {
      analytics: form.get('analytics') === 'on',
      marketing: form.get('marketing') === 'on',
      functional: form.get('functional') === 'on',
    },
    getEnv().NODE_ENV === 'production',
  )
  for (const cookie of cookies) headers.append('Set-Cookie', cookie)
  return redirect(to, { headers })
}

export function loader() {
  return redirect('/')
}
