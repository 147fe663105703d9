import type { LoaderFunctionArgs } from '@remix-run/node'
import { getUserBids, RECENT_BIDS, userBidJson } from '~/models/account.server.ts'
import { forVisitors } from '~/models/house-bids.ts'
import { getSettings } from '~/models/settings.server.ts'
import { json, methodNotAllowed } from '~/utils/api.server.ts'
import { requireApiUser } from '~/services/guards.server.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request)
  const [bids, { discloseHouseBids }] = await Promise.all([
    getUserBids(user.id, { limit: RECENT_BIDS }),
    getSettings(),
  ])
  return json(forVisitors({ bids: bids.map(userBidJson) }, discloseHouseBids).bids)
}

export const action = ({ request }: { request: Request }) => methodNotAllowed(request)
