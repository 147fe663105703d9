import type { ActionFunctionArgs } from '@remix-run/node'
import { DomainError } from '~/utils/domain-error.ts'
import { buyNow, orderJson } from '~/models/order.server.ts'
import { getFixedT } from '~/services/i18n.server.ts'
import { apiError, json, methodNotAllowed, requireApiUser } from '~/utils/api.server.ts'

/**
 * POST, no body -> 201 {order}: Buy It Now for a participant who did not win
 * (docs/decisions/017-buy-it-now.md); refusals are 403/404/409 with the reason.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(request)
  const t = await getFixedT(request, ['orders', 'common'])
  const user = await requireApiUser(request, t)
  try {
    const order = await buyNow((params.id ?? '').slice(0, 64), user.id)
    return json({ order: orderJson(order) }, 201)
  } catch (error) {
    if (error instanceof DomainError) return apiError(error.status, t(error.key))
    throw error
  }
}

export const loader = ({ request }: { request: Request }) => methodNotAllowed(request)
