import type { LoaderFunctionArgs } from '@remix-run/node'
import { auctionJson } from '~/models/auction-json.ts'
import { getAuctionGroups } from '~/models/auction-view.server.ts'
import { forVisitors } from '~/models/house-bids.ts'
import { getSettings } from '~/models/settings.server.ts'
import { json } from '~/utils/api.server.ts'

export async function loader({ context }: LoaderFunctionArgs) {
  const [groups, { discloseHouseBids }] = await Promise.all([
    getAuctionGroups(context.engine),
    getSettings(),
  ])
  const shown = (auctions: typeof groups.live) =>
    forVisitors({ auctions: auctions.map(auctionJson) }, discloseHouseBids).auctions
  return json({
    live: shown(groups.live),
    upcoming: shown(groups.upcoming),
    finished: shown(groups.finished),
  })
}
