import type { ActionFunctionArgs } from '@remix-run/node'
import { destroyAllSessions, logoutAnswer } from '~/services/auth.server.ts'
import { methodNotAllowed } from '~/utils/api.server.ts'
import { requireApiUser } from '~/services/guards.server.ts'

/** "Log out everywhere": every session of the signed-in account ends, this one included. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(request)
  const user = await requireApiUser(request)
  return logoutAnswer(request, () => destroyAllSessions(user.id, context.engine))
}

export const loader = ({ request }: { request: Request }) => methodNotAllowed(request)
