import type { LoaderFunctionArgs } from '@remix-run/node'
import { auctionJson } from '~/models/auction-json.ts'
import { forVisitors } from '~/models/house-bids.ts'
import { getSettings } from '~/models/settings.server.ts'
import { getWatchlist } from '~/models/watch.server.ts'
import { json, methodNotAllowed, requireApiUser } from '~/utils/api.server.ts'

// GET /api/users/watchlist -> {auctions} in the shape of GET /api/auctions.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireApiUser(request)
  const [auctions, { discloseHouseBids }] = await Promise.all([
    getWatchlist(context.engine, user.id),
    getSettings(),
  ])
  return json(forVisitors({ auctions: auctions.map(auctionJson) }, discloseHouseBids))
}

export const action = ({ request }: { request: Request }) => methodNotAllowed(request)
