import type { LoaderFunctionArgs } from '@remix-run/node'
import { getUserBids, userBidJson } from '~/models/account.server.ts'
import { json, methodNotAllowed, requireApiUser } from '~/utils/api.server.ts'

/** The user's bids, newest first; `?active=1` keeps those in auctions still running. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request)
  const active = ['1', 'true'].includes(new URL(request.url).searchParams.get('active') ?? '')
  return json((await getUserBids(user.id, { active })).map(userBidJson))
}

export const action = ({ request }: { request: Request }) => methodNotAllowed(request)
