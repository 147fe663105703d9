import type { LoaderFunctionArgs } from '@remix-run/node'
import { auctionJson } from '~/models/auction-json.ts'
import { getAuctionGroups } from '~/models/auction-live.server.ts'
import { json } from '~/utils/api.server.ts'

export async function loader({ context }: LoaderFunctionArgs) {
  const groups = await getAuctionGroups(context.engine)
  return json({
    live: groups.live.map(auctionJson),
    upcoming: groups.upcoming.map(auctionJson),
    finished: groups.finished.map(auctionJson),
  })
}
