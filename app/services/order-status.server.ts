import { creditPackageOrder, type Engine } from '../../engine/index.ts'
import { readAdminOrder, writeOrderStatus } from '~/models/admin-orders.server.ts'
import { alertAfter } from '~/services/alerts/enqueue.server.ts'
import { log } from '~/utils/logger.server.ts'
import type { OrderStatusName } from '~/validation/order.ts'

/**
 * An admin's status change (/admin/orders and PATCH /api/admin/orders/{id}): only the forward
 * moves of adminTransitions. A bid package's order marked paid (cash at the office) has its bids
 * credited at once, or by the order worker; a shipped order's buyer is alerted once it is saved.
 */
export async function setOrderStatus(
  engine: Engine,
  id: string,
  status: OrderStatusName,
  now = new Date(),
) {
  const { bids } = await writeOrderStatus(id, status, now)
  if (status === 'paid' && bids > 0) {
    await creditPackageOrder(engine, id).catch((error: unknown) => {
      log.warn('bid-package order not credited yet', { orderId: id, error: String(error) })
    })
  }
  const order = await readAdminOrder(id, now)
  if (status === 'shipped' && order.user)
    await alertAfter([
      {
        userId: order.user.id,
        kind: 'orderShipped',
        key: `orderShipped:${id}`,
        auctionId: order.auction.id,
        orderId: id,
      },
    ])
  return order
}
