import type { LoaderFunctionArgs } from '@remix-run/node'
import { auctionJson } from '~/models/auction-json.ts'
import { forVisitors } from '~/models/house-bids.ts'
import { getSettings } from '~/models/settings.server.ts'
import { getWatchlist } from '~/models/watch.server.ts'
import { json, methodNotAllowed } from '~/utils/api.server.ts'
import { requireApiUser } from '~/services/guards.server.ts'
import { pageParam } from '~/utils/http.ts'

// GET /api/users/watchlist?page= -> {auctions, page, totalPages, total}: 20 a page, the auctions
// in the shape of GET /api/auctions (docs/rules.md#watchlist).
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireApiUser(request)
  const page = pageParam(new URL(request.url).searchParams.get('page'))
  const [list, { discloseHouseBids }] = await Promise.all([
    getWatchlist(context.engine, user.id, page),
    getSettings(),
  ])
  const { auctions } = forVisitors({ auctions: list.auctions.map(auctionJson) }, discloseHouseBids)
  return json({ auctions, page: list.page, totalPages: list.totalPages, total: list.total })
}

export const action = ({ request }: { request: Request }) => methodNotAllowed(request)
