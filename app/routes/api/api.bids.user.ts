import type { LoaderFunctionArgs } from '@remix-run/node'
import { getUserBids, userBidJson } from '~/models/account.server.ts'
import { forVisitors } from '~/models/house-bids.ts'
import { getSettings } from '~/models/settings.server.ts'
import { json, methodNotAllowed } from '~/utils/api.server.ts'
import { requireApiUser } from '~/services/guards.server.ts'

/** The user's bids, newest first; `?active=1` keeps those in auctions still running. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request)
  const active = ['1', 'true'].includes(new URL(request.url).searchParams.get('active') ?? '')
  const [bids, { discloseHouseBids }] = await Promise.all([
    getUserBids(user.id, { active }),
    getSettings(),
  ])
  return json(forVisitors({ bids: bids.map(userBidJson) }, discloseHouseBids).bids)
}

export const action = ({ request }: { request: Request }) => methodNotAllowed(request)
