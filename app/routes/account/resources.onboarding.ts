import { clearOnboarding } from '~/services/onboarding.server.ts'
import { methodNotAllowed } from '~/utils/api.server.ts'
import { PRIVATE } from '~/utils/cache-control.ts'
import { formAnswer, readForm } from '~/utils/form.server.ts'

// Where a page says it has shown the onboarding dialogs (app/components/onboarding.tsx, its
// fetcher says `via=fetcher`): their flags end here, not in the data answer that brought them
// (app/services/onboarding.server.ts). Only for pages with JavaScript; without it, the page's own
// load ends them.

export async function action({ request }: { request: Request }) {
  if (request.method !== 'POST') return methodNotAllowed(request)
  const form = await readForm(request)
  return formAnswer(
    form,
    { ok: true },
    { headers: { 'Set-Cookie': await clearOnboarding(), 'Cache-Control': PRIVATE } },
  )
}

export const loader = ({ request }: { request: Request }) => methodNotAllowed(request)
