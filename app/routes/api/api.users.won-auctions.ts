import type { LoaderFunctionArgs } from '@remix-run/node'
import { getWonAuctions, wonAuctionJson } from '~/models/account.server.ts'
import { json, methodNotAllowed, requireApiUser } from '~/utils/api.server.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request)
  return json((await getWonAuctions(user.id)).map(wonAuctionJson))
}

export const action = ({ request }: { request: Request }) => methodNotAllowed(request)
