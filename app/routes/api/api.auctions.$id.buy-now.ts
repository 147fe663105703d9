import type { ActionFunctionArgs } from '@remix-run/node'
import { buyNow, orderJson } from '~/models/order.server.ts'
import { getFixedT } from '~/i18n/i18next.server.ts'
import { answerRefusals, json, methodNotAllowed } from '~/utils/api.server.ts'
import { requireApiUser } from '~/services/guards.server.ts'

/**
 * POST, no body -> 201 {order}: Buy It Now for a participant who did not win
 * (docs/decisions/017-buy-it-now.md); refusals are 403/404/409 with the reason.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(request)
  const t = await getFixedT(request, ['orders', 'common'])
  const user = await requireApiUser(request, t)
  return answerRefusals(t, async () => {
    const order = await buyNow((params.id ?? '').slice(0, 64), user.id)
    return json({ order: orderJson(order) }, 201)
  })
}

export const loader = ({ request }: { request: Request }) => methodNotAllowed(request)
