import { useLoaderData } from '@remix-run/react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { RefundDialog } from '~/components/admin/refund-dialog.tsx'
import { refundTarget } from '~/models/admin-orders.server.ts'
import { customConfirmRoute } from '~/services/confirm-route.server.ts'
import { refundOrder } from '~/services/payments/refund.server.ts'
import { listBack } from '~/utils/admin-lists.ts'
import { DomainError } from '~/utils/domain-error.ts'
import { useFormatMoney } from '~/utils/hooks.ts'
import { refundSchema } from '~/validation/order.ts'

// /admin/orders/ID/refund: returns an order's money through the provider that took it, after a
// confirmation with a reason in a dialog over the list (docs/rules.md#refunds).

const NS = ['admin-orders', 'orders', 'admin'] as const
export const handle = { i18n: [...NS] }

const route = customConfirmRoute({
  ns: NS,
  find: (id) => refundTarget(id),
  run: ({ id, admin, form }) => {
    const parsed = refundSchema.safeParse({ reason: form.get('reason') ?? undefined })
    if (!parsed.success)
      throw new DomainError(400, parsed.error.issues[0]?.message ?? 'errors.reason')
    return refundOrder(id, admin, parsed.data.reason)
  },
  back: listBack('orders'),
  done: (t, order) => t('refund.done', { title: order.title ?? '' }),
  errorText: (t, key) => t(key),
})
export const loader = route.loader
export const action = route.action

export default function RefundOrderRoute() {
  const { thing: refund, closeTo } = useLoaderData<typeof loader>()
  const { t } = useTranslation(NS)
  const money = useFormatMoney()
  return (
    <RefundDialog
      title={t('refund.title', { title: refund.title ?? '' })}
      description={
        refund.refused
          ? t(refund.refused)
          : t(refund.cancelOrder ? 'refund.text' : 'refund.textHeld', {
              amount: money(refund.amount ?? 0),
              username: refund.username ?? '',
            })
      }
      confirmLabel={refund.refused ? null : t('refund.confirm')}
      cancelLabel={t('refund.cancel')}
      closeTo={closeTo}
      reasonLabel={t('refund.reason')}
    />
  )
}

export { GeneralErrorBoundary as ErrorBoundary } from '~/components/error-boundary.tsx'
