import type { ActionFunctionArgs } from '@remix-run/node'
import { DomainError } from '~/utils/domain-error.ts'
import { setOrderStatus } from '~/services/order-status.server.ts'
import { orderJson } from '~/models/order.server.ts'
import { adminApi } from '~/services/admin.server.ts'
import { getFixedT } from '~/services/i18n.server.ts'
import { apiError, json, methodNotAllowed, readJson, validate } from '~/utils/api.server.ts'
import { adminOrderStatusSchema } from '~/validation/order.ts'

/** PATCH {status: paid|shipped|delivered|cancelled} -> {order}; impossible moves are a 409. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== 'PATCH') return methodNotAllowed(request)
  return adminApi(request, async () => {
    const t = await getFixedT(request, ['admin-orders', 'admin', 'common'])
    const { status } = validate(adminOrderStatusSchema, await readJson(request, t), t)
    try {
      const order = await setOrderStatus(context.engine, (params.id ?? '').slice(0, 64), status)
      return json({ order: orderJson(order) })
    } catch (error) {
      if (error instanceof DomainError) return apiError(error.status, t(error.key))
      throw error
    }
  })
}

export const loader = ({ request }: { request: Request }) => methodNotAllowed(request)
