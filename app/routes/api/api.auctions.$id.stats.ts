import type { LoaderFunctionArgs } from '@remix-run/node'
import { getAuctionStats } from '~/models/auction-view.server.ts'
import { forVisitors } from '~/models/house-bids.ts'
import { getSettings } from '~/models/settings.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import { apiError, json, translator } from '~/utils/api.server.ts'

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const id = params.id ?? ''
  const exists = await getPrisma().auction.findUnique({ where: { id }, select: { id: true } })
  if (!exists) return apiError(404, (await translator(request))('bidding.errors.auction_not_found'))
  const [stats, { discloseHouseBids }] = await Promise.all([
    getAuctionStats(context.engine, id),
    getSettings(),
  ])
  return json(forVisitors({ stats }, discloseHouseBids).stats)
}
