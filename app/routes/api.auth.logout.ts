import type { ActionFunctionArgs } from '@remix-run/node'
import { destroySession } from '~/services/auth.server.ts'
import { json, methodNotAllowed } from '~/utils/api.server.ts'

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(request)
  return json({ ok: true }, { headers: { 'Set-Cookie': await destroySession(request) } })
}

export const loader = ({ request }: { request: Request }) => methodNotAllowed(request)
