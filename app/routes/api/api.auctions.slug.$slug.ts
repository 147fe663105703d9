import type { LoaderFunctionArgs } from '@remix-run/node'
import { auctionJson } from '~/models/auction-json.ts'
import { getAuctionBySlug } from '~/models/auction-view.server.ts'
import { forVisitors } from '~/models/house-bids.ts'
import { getSettings } from '~/models/settings.server.ts'
import { apiError, json, translator } from '~/utils/api.server.ts'

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const [auction, { discloseHouseBids }] = await Promise.all([
    getAuctionBySlug(context.engine, params.slug ?? ''),
    getSettings(),
  ])
  if (!auction)
    return apiError(404, (await translator(request))('bidding.errors.auction_not_found'))
  return json(forVisitors({ auction: auctionJson(auction) }, discloseHouseBids).auction)
}
