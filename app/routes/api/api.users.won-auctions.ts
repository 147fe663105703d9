import type { LoaderFunctionArgs } from '@remix-run/node'
import { getWonAuctions, wonAuctionJson } from '~/models/account.server.ts'
import { json, methodNotAllowed } from '~/utils/api.server.ts'
import { requireApiUser } from '~/services/guards.server.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request)
  return json((await getWonAuctions(user.id)).map(wonAuctionJson))
}

export const action = ({ request }: { request: Request }) => methodNotAllowed(request)
