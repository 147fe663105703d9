import type { ActionFunctionArgs } from '@remix-run/node'
import { setOrderStatus } from '~/services/order-status.server.ts'
import { orderJson } from '~/models/order.server.ts'
import { adminApi } from '~/services/admin.server.ts'
import { getFixedT } from '~/i18n/i18next.server.ts'
import { answerRefusals, json, methodNotAllowed, readJson, validate } from '~/utils/api.server.ts'
import { adminOrderStatusSchema } from '~/validation/order.ts'

/** PATCH {status: paid|shipped|delivered|cancelled} -> {order}; impossible moves are a 409. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== 'PATCH') return methodNotAllowed(request)
  return adminApi(request, async () => {
    const t = await getFixedT(request, ['admin-orders', 'admin', 'common'])
    const { status } = validate(adminOrderStatusSchema, await readJson(request, t), t)
    return answerRefusals(t, async () => {
      const order = await setOrderStatus(context.engine, (params.id ?? '').slice(0, 64), status)
      return json({ order: orderJson(order) })
    })
  })
}

export const loader = ({ request }: { request: Request }) => methodNotAllowed(request)
