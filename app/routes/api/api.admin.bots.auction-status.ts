import type { LoaderFunctionArgs } from '@remix-run/node'
import { botAuctionStatus } from '~/models/admin-bots.server.ts'
import { adminApi } from '~/services/admin.server.ts'
import { json, methodNotAllowed } from '~/utils/api.server.ts'

/** Bot id -> [{auctionId, auctionTitle, currentBids, bidLimit}] for auctions not finished. */
export async function loader({ request }: LoaderFunctionArgs) {
  return adminApi(request, async () => json(await botAuctionStatus()))
}

export const action = ({ request }: { request: Request }) => methodNotAllowed(request)
