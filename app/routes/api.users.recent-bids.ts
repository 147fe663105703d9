import type { LoaderFunctionArgs } from '@remix-run/node'
import { getUserBids, RECENT_BIDS, userBidJson } from '~/models/account.server.ts'
import { json, methodNotAllowed, requireApiUser } from '~/utils/api.server.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request)
  return json((await getUserBids(user.id, { limit: RECENT_BIDS })).map(userBidJson))
}

export const action = ({ request }: { request: Request }) => methodNotAllowed(request)
