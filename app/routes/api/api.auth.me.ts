import type { LoaderFunctionArgs } from '@remix-run/node'
import { getUserView } from '~/models/user-view.server.ts'
import { json, methodNotAllowed, translator } from '~/utils/api.server.ts'
import { requireApiUser } from '~/services/guards.server.ts'

export async function loader({ request, context }: LoaderFunctionArgs) {
  const t = await translator(request)
  const user = await requireApiUser(request, t)
  return json({ user: await getUserView(context.engine, user.id) })
}

export const action = ({ request }: { request: Request }) => methodNotAllowed(request)
