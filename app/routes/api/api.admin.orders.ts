import type { LoaderFunctionArgs } from '@remix-run/node'
import { listOrders } from '~/models/admin-orders.server.ts'
import { orderJson } from '~/models/order.server.ts'
import { adminApi } from '~/services/admin.server.ts'
import { json, methodNotAllowed } from '~/utils/api.server.ts'
import { pageParam } from '~/utils/http.ts'
import { orderStatuses, type OrderStatusName } from '~/validation/order.ts'

/** GET ?status=&page= -> {orders, total, page, totalPages}: newest first, money in som. */
export async function loader({ request }: LoaderFunctionArgs) {
  return adminApi(request, async () => {
    const params = new URL(request.url).searchParams
    const raw = params.get('status') ?? ''
    const status = (orderStatuses as readonly string[]).includes(raw)
      ? (raw as OrderStatusName)
      : null
    const list = await listOrders({ status, page: pageParam(params.get('page')) })
    return json({ ...list, orders: list.orders.map(orderJson) })
  })
}

export const action = ({ request }: { request: Request }) => methodNotAllowed(request)
