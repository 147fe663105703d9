import type { ActionFunctionArgs } from '@remix-run/node'
import { endAuction } from '~/models/admin-auctions.server.ts'
import { auctionJson } from '~/models/auction-json.ts'
import { adminApi } from '~/services/admin.server.ts'
import { json, methodNotAllowed } from '~/utils/api.server.ts'

export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(request)
  return adminApi(request, async () =>
    json(auctionJson(await endAuction(context.engine, params.id ?? ''))),
  )
}

export const loader = ({ request }: { request: Request }) => methodNotAllowed(request)
