import type { LoaderFunctionArgs } from '@remix-run/node'
import { userActivity } from '~/models/admin-users.server.ts'
import { adminApi } from '~/services/admin.server.ts'
import { json, methodNotAllowed } from '~/utils/api.server.ts'
import { toMajor } from '~/utils/money.ts'

export async function loader({ request, params }: LoaderFunctionArgs) {
  return adminApi(request, async () => {
    const activity = await userActivity(params.id ?? '')
    return json({
      wonAuctions: activity.wonAuctions.map((a) => ({ ...a, finalPrice: toMajor(a.finalPrice) })),
      activeBids: activity.activeBids.map((b) => ({ ...b, currentPrice: toMajor(b.currentPrice) })),
      prebids: activity.prebids,
    })
  })
}

export const action = ({ request }: { request: Request }) => methodNotAllowed(request)
