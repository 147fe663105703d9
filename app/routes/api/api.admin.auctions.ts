import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { createAuction } from '~/models/admin-auctions.server.ts'
import { auctionJson } from '~/models/auction-json.ts'
import { getOpenAuctionsPage } from '~/models/auction-view.server.ts'
import { adminApi } from '~/services/admin.server.ts'
import { json, methodNotAllowed, readJson, validate } from '~/utils/api.server.ts'
import { pageParam } from '~/utils/http.ts'
import { auctionCreateSchema } from '~/validation/admin-auctions.ts'

export const ADMIN_AUCTIONS_PER_PAGE = 10

/** Auctions not finished, live first then upcoming by start; `?page=` of 10. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return adminApi(request, async () => {
    const page = pageParam(new URL(request.url).searchParams.get('page'))
    const result = await getOpenAuctionsPage(context.engine, page, ADMIN_AUCTIONS_PER_PAGE)
    return json({ ...result, auctions: result.auctions.map(auctionJson) })
  })
}

/**
 * POST {title, description, imageUrl, retailPrice, startTime, isBidPackage, beginnerOnly,
 * lockAfterMinutes, …} -> 201.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(request)
  return adminApi(request, async (t) => {
    const input = validate(auctionCreateSchema, await readJson(request, t), t)
    return json(auctionJson(await createAuction(context.engine, input)), 201)
  })
}
