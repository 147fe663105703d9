import type { ActionFunctionArgs } from '@remix-run/node'
import { deleteBot } from '~/models/admin-bots.server.ts'
import { adminApi } from '~/services/admin.server.ts'
import { json, methodNotAllowed } from '~/utils/api.server.ts'

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'DELETE') return methodNotAllowed(request)
  return adminApi(request, async () => {
    await deleteBot(params.id ?? '')
    return json({ ok: true })
  })
}

export const loader = ({ request }: { request: Request }) => methodNotAllowed(request)
