import type { LoaderFunctionArgs } from '@remix-run/node'
import { getUserPrebids } from '~/models/account.server.ts'
import { json, methodNotAllowed } from '~/utils/api.server.ts'
import { requireApiUser } from '~/services/guards.server.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request)
  return json(await getUserPrebids(user.id))
}

export const action = ({ request }: { request: Request }) => methodNotAllowed(request)
