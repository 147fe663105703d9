import type { ActionFunctionArgs } from '@remix-run/node'
import { DomainError } from '~/utils/domain-error.ts'
import { orderJson, setDelivery } from '~/models/order.server.ts'
import { getFixedT } from '~/services/i18n.server.ts'
import {
  apiError,
  json,
  methodNotAllowed,
  readJson,
  requireApiUser,
  validate,
} from '~/utils/api.server.ts'
import { deliverySchema } from '~/validation/order.ts'

/** PUT {deliveryMethod, address?, phone?} -> {order}; another person's order is a 404. */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'PUT') return methodNotAllowed(request)
  const t = await getFixedT(request, ['orders', 'common'])
  const user = await requireApiUser(request, t)
  const input = validate(deliverySchema, await readJson(request, t), t)
  try {
    const order = await setDelivery(user.id, (params.id ?? '').slice(0, 64), input)
    return json({ order: orderJson(order) })
  } catch (error) {
    if (error instanceof DomainError) return apiError(error.status, t(error.key))
    throw error
  }
}

export const loader = ({ request }: { request: Request }) => methodNotAllowed(request)
