import type { LoaderFunctionArgs } from '@remix-run/node'
import { listUsers, USERS_PER_PAGE } from '~/models/admin-users.server.ts'
import { adminApi } from '~/services/admin.server.ts'
import { json, methodNotAllowed } from '~/utils/api.server.ts'
import { pageParam } from '~/utils/http.ts'

/** `?page=&limit=&search=` -> {users, total, page, totalPages}; limit 1..100, default 10. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return adminApi(request, async () => {
    const params = new URL(request.url).searchParams
    const limit = Math.min(100, pageParam(params.get('limit') ?? String(USERS_PER_PAGE)))
    return json(
      await listUsers(
        context.engine,
        pageParam(params.get('page')),
        limit,
        params.get('search') ?? '',
      ),
    )
  })
}

export const action = ({ request }: { request: Request }) => methodNotAllowed(request)
