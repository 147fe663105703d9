import type { LoaderFunctionArgs } from '@remix-run/node'
import { listUserOrders, orderJson } from '~/models/order.server.ts'
import { json, methodNotAllowed, translator } from '~/utils/api.server.ts'
import { requireApiUser } from '~/services/guards.server.ts'

/** GET -> {orders}: the user's own won and bought items, newest first (money in som). */
export async function loader({ request }: LoaderFunctionArgs) {
  const t = await translator(request)
  const user = await requireApiUser(request, t)
  const orders = await listUserOrders(user.id)
  return json({ orders: orders.map(orderJson) })
}

export const action = ({ request }: { request: Request }) => methodNotAllowed(request)
