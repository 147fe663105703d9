import { redirect, type ActionFunctionArgs } from '@remix-run/node'
import { isLanguage } from '~/i18n/config.ts'
import { rememberLanguage } from '~/models/alert-choices.server.ts'
import { languageCookie } from '~/i18n/detect.server.ts'
import { getOptionalUserId } from '~/services/session.server.ts'
import { safeRedirect } from '~/utils/http.ts'
import { readForm } from '~/utils/form.server.ts'

// The language switcher posts here (it works without JavaScript): store the choice, go back.
export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request)
  const lng = form.get('lng')
  const to = safeRedirect(form.get('redirectTo'))
  if (!isLanguage(lng)) return redirect(to)
  const userId = await getOptionalUserId(request)
  if (userId) await rememberLanguage(userId, lng)
  return redirect(to, { headers: { 'Set-Cookie': await languageCookie.serialize(lng) } })
}

export function loader() {
  return redirect('/')
}
