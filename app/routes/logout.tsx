import { redirect, type ActionFunctionArgs } from '@remix-run/node'
import { destroySession } from '~/services/auth.server.ts'
import { getFixedT } from '~/services/i18n.server.ts'
import { createToastHeaders } from '~/services/toast.server.ts'
import { combineHeaders } from '~/utils/http.ts'

// Logging out deletes the Session row, so the cookie is worthless even if it was copied.
export async function action({ request }: ActionFunctionArgs) {
  const t = await getFixedT(request)
  return redirect('/', {
    headers: combineHeaders(
      { 'Set-Cookie': await destroySession(request) },
      await createToastHeaders({ description: t('auth.loggedOut') }),
    ),
  })
}

export function loader() {
  return redirect('/')
}
