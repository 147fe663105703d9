import type { ActionFunctionArgs } from '@remix-run/node'
import { deleteFinishedAuction } from '~/models/admin-auctions.server.ts'
import { adminApi } from '~/services/admin.server.ts'
import { json, methodNotAllowed } from '~/utils/api.server.ts'

/** DELETE a finished auction with its bids (docs/decisions/012-admin-deletes.md). */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== 'DELETE') return methodNotAllowed(request)
  return adminApi(request, async () => {
    await deleteFinishedAuction(context.engine, params.id ?? '')
    return json({ ok: true })
  })
}

export const loader = ({ request }: { request: Request }) => methodNotAllowed(request)
