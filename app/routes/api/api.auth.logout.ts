import type { ActionFunctionArgs } from '@remix-run/node'
import { destroySession, logoutAnswer } from '~/services/auth.server.ts'
import { methodNotAllowed } from '~/utils/api.server.ts'

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(request)
  return logoutAnswer(request, () => destroySession(request, context.engine))
}

export const loader = ({ request }: { request: Request }) => methodNotAllowed(request)
