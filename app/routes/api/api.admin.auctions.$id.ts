import type { ActionFunctionArgs } from '@remix-run/node'
import { deleteAuction, updateAuction } from '~/models/admin-auctions.server.ts'
import { auctionJson } from '~/models/auction-json.ts'
import { adminApi } from '~/services/admin.server.ts'
import { json, methodNotAllowed, readJson, validate } from '~/utils/api.server.ts'
import { auctionUpdateSchema } from '~/validation/admin-auctions.ts'

/**
 * PUT edits (title, description, imageUrl, retailPrice, startTime, …; beginnerOnly and
 * lockAfterMinutes only while upcoming, left out unchanged); DELETE removes.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const id = params.id ?? ''
  if (request.method === 'PUT') {
    return adminApi(request, async (t) => {
      const input = validate(auctionUpdateSchema, await readJson(request, t), t)
      return json(auctionJson(await updateAuction(context.engine, id, input)))
    })
  }
  if (request.method === 'DELETE') {
    return adminApi(request, async () => json(await deleteAuction(context.engine, id)))
  }
  return methodNotAllowed(request)
}

export const loader = ({ request }: { request: Request }) => methodNotAllowed(request)
