import type { ActionFunctionArgs } from '@remix-run/node'
import { orderJson, setDelivery } from '~/models/order.server.ts'
import { getFixedT } from '~/i18n/i18next.server.ts'
import { answerRefusals, json, methodNotAllowed, readJson, validate } from '~/utils/api.server.ts'
import { requireApiUser } from '~/services/guards.server.ts'
import { deliverySchema } from '~/validation/order.ts'

/** PUT {deliveryMethod, address?, phone?} -> {order}; another person's order is a 404. */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'PUT') return methodNotAllowed(request)
  const t = await getFixedT(request, ['orders', 'common'])
  const user = await requireApiUser(request, t)
  const input = validate(deliverySchema, await readJson(request, t), t)
  return answerRefusals(t, async () => {
    const order = await setDelivery(user.id, (params.id ?? '').slice(0, 64), input)
    return json({ order: orderJson(order) })
  })
}

export const loader = ({ request }: { request: Request }) => methodNotAllowed(request)
