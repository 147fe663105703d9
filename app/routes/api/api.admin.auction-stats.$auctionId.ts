import type { LoaderFunctionArgs } from '@remix-run/node'
import { auctionStats } from '~/models/admin-finished.server.ts'
import { adminApi } from '~/services/admin.server.ts'
import { json, methodNotAllowed } from '~/utils/api.server.ts'
import { toMajor } from '~/utils/money.ts'

export async function loader({ request, params }: LoaderFunctionArgs) {
  return adminApi(request, async () => {
    const stats = await auctionStats(params.auctionId ?? '')
    return json({
      ...stats,
      bids: stats.bids.map((b) => ({ ...b, bidAmount: toMajor(b.bidAmount) })),
    })
  })
}

export const action = ({ request }: { request: Request }) => methodNotAllowed(request)
