import type { LoaderFunctionArgs } from '@remix-run/node'
import { todayRegistrations } from '~/models/admin-users.server.ts'
import { adminApi } from '~/services/admin.server.ts'
import { json, methodNotAllowed } from '~/utils/api.server.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  return adminApi(request, async () => json({ count: await todayRegistrations() }))
}

export const action = ({ request }: { request: Request }) => methodNotAllowed(request)
