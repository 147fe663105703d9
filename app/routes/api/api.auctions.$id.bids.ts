import type { LoaderFunctionArgs } from '@remix-run/node'
import { getAuctionBids } from '~/models/auction-view.server.ts'
import { forVisitors } from '~/models/house-bids.ts'
import { getSettings } from '~/models/settings.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import { apiError, json, translator } from '~/utils/api.server.ts'

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const id = params.id ?? ''
  const state = await context.engine.getState(id)
  const status =
    state?.status ??
    (await getPrisma().auction.findUnique({ where: { id }, select: { status: true } }))?.status
  if (!status) return apiError(404, (await translator(request))('bidding.errors.auction_not_found'))
  const [bids, { discloseHouseBids }] = await Promise.all([
    getAuctionBids(context.engine, { id, status }),
    getSettings(),
  ])
  return json(forVisitors({ bids }, discloseHouseBids).bids)
}
