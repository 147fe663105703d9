import { Form, Link } from '@remix-run/react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { Button, buttonClass } from '~/components/ui/button.tsx'
import { Table } from '~/components/ui/table.tsx'
import type { AdminOrderView } from '~/models/admin-orders.server.ts'
import { formatDateTime } from '~/utils/dates.ts'
import { useFormatMoney } from '~/utils/hooks.ts'
import { adminTransitions, refundCandidate } from '~/validation/order.ts'

// /admin/orders: one row per order, newest first, with the status moves that make sense from
// where it is (adminTransitions), each a plain form post, the money that reached it (paid,
// held for an admin, refunded) and a link to refund it where refundCandidate allows.

type Row = Omit<AdminOrderView, 'auction'> & {
  auction: { id: string; title: string; slug: string; displayId: string }
}

export function OrdersTable({
  orders,
  back,
  refundHref,
}: {
  orders: Row[]
  back: string
  /** An order's refund dialog route (the list's filter and page kept). */
  refundHref: (id: string) => string
}) {
  const { t } = useTranslation(['admin-orders', 'orders'])
  const money = useFormatMoney()
  const columns = [
    t('table.auction'),
    t('table.user'),
    t('table.kind'),
    t('table.rank'),
    t('table.price'),
    t('table.delivery'),
    t('table.fee'),
    t('table.contact'),
    t('table.status'),
    t('table.payment'),
    t('table.dates'),
    t('table.actions'),
  ]
  return (
    <Table caption={t('caption')} columns={columns} width="xl" dense>
      {orders.map((order) => {
        const name = [order.user.firstName, order.user.lastName].filter(Boolean).join(' ')
        return (
          <tr key={order.id} className="align-top">
            <td className="max-w-56 px-3 py-2">
              <Link
                to={`/auction/${order.auction.slug}`}
                className="font-medium underline-offset-2 [overflow-wrap:anywhere] hover:underline"
              >
                {order.auction.title}
              </Link>
              <span className="block font-mono text-xs text-slate-600">
                {order.auction.displayId}
              </span>
            </td>
            <td className="px-3 py-2 [overflow-wrap:anywhere]">
              <span className="font-medium">{order.user.username}</span>
              {name ? <span className="block text-xs text-slate-600">{name}</span> : null}
            </td>
            <td className="px-3 py-2">{t(`orders:kind.${order.kind}`)}</td>
            <td className="px-3 py-2 tabular-nums">{order.rank}</td>
            <td className="px-3 py-2 tabular-nums">{money(order.price)}</td>
            <td className="px-3 py-2">
              {order.bids > 0
                ? t('orders:packageBids', { count: order.bids })
                : order.deliveryMethod
                  ? t(`orders:delivery.short.${order.deliveryMethod}`)
                  : t('noDelivery')}
            </td>
            <td className="px-3 py-2 tabular-nums">{money(order.deliveryFee)}</td>
            <td className="max-w-56 px-3 py-2 [overflow-wrap:anywhere]">
              {order.address ?? '—'}
              <span className="block text-xs text-slate-600">{order.phone ?? '—'}</span>
            </td>
            <td className="px-3 py-2 font-semibold">{t(`orders:status.${order.status}`)}</td>
            <td className="max-w-64 px-3 py-2 text-xs">
              {order.payments.length === 0 ? '—' : null}
              {order.payments.map((payment) => (
                <span key={payment.id} className="mb-1 block">
                  <span
                    className={`font-semibold ${payment.status === 'held' ? 'text-red-800' : ''}`}
                  >
                    {t(`payment.status.${payment.status}`)}
                  </span>{' '}
                  <span className="tabular-nums">{money(payment.amount)}</span>
                  {payment.failureReason ? (
                    <span className="block text-slate-700">
                      {t(`payment.reason.${payment.failureReason}`, {
                        defaultValue: payment.failureReason,
                      })}
                    </span>
                  ) : null}
                  {payment.refundedAt ? (
                    <span className="block text-slate-700 [overflow-wrap:anywhere]">
                      {t('payment.refunded', {
                        date: formatDateTime(payment.refundedAt),
                        reason: payment.refundReason ?? '',
                      })}
                    </span>
                  ) : null}
                </span>
              ))}
            </td>
            <td className="px-3 py-2 text-xs">
              {order.status === 'awaiting_payment' || order.status === 'expired'
                ? t('expires', { date: formatDateTime(order.expiresAt) })
                : null}
              {order.paidAt ? (
                <span className="block">{t('paid', { date: formatDateTime(order.paidAt) })}</span>
              ) : null}
              {order.shippedAt ? (
                <span className="block">
                  {t('orders:shippedAt', { date: formatDateTime(order.shippedAt) })}
                </span>
              ) : null}
              {order.deliveredAt ? (
                <span className="block">
                  {t('orders:deliveredAt', { date: formatDateTime(order.deliveredAt) })}
                </span>
              ) : null}
            </td>
            <td className="px-3 py-2">
              <Form method="post" action={back} className="flex flex-wrap gap-1">
                <input type="hidden" name="id" value={order.id} />
                {adminTransitions(order.status, order.bids).map((status) => (
                  <Button
                    key={status}
                    name="intent"
                    value={status}
                    aria-label={`${t(`actions.${status}`)}: ${order.auction.title}, ${order.user.username}`}
                    variant={status === 'cancelled' ? 'dangerOutline' : 'outline'}
                    size="xs"
                  >
                    {t(`actions.${status}`)}
                  </Button>
                ))}
              </Form>
              {'refused' in refundCandidate(order.status, order.payments) ? null : (
                <Link
                  to={refundHref(order.id)}
                  preventScrollReset
                  aria-label={`${t('refund.open')}: ${order.auction.title}, ${order.user.username}`}
                  className={buttonClass({
                    variant: 'dangerOutline',
                    size: 'xs',
                    className: 'mt-1',
                  })}
                >
                  {t('refund.open')}
                </Link>
              )}
            </td>
          </tr>
        )
      })}
    </Table>
  )
}
