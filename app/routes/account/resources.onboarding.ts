import { data } from '@remix-run/node'
import { clearOnboarding } from '~/services/onboarding.server.ts'
import { methodNotAllowed } from '~/utils/api.server.ts'
import { PRIVATE } from '~/utils/cache-control.ts'

// Where a page says it has shown the onboarding dialogs (app/components/onboarding.tsx): their
// flags end here, not in the data answer that brought them (app/services/onboarding.server.ts).
// Only for pages with JavaScript; without it, the page's own load ends them.

export async function action({ request }: { request: Request }) {
  if (request.method !== 'POST') return methodNotAllowed(request)
  return data(
    { ok: true },
    { headers: { 'Set-Cookie': await clearOnboarding(), 'Cache-Control': PRIVATE } },
  )
}

export const loader = ({ request }: { request: Request }) => methodNotAllowed(request)
