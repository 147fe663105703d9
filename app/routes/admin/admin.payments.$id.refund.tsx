import { useLoaderData } from '@remix-run/react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { RefundDialog } from '~/components/admin/refund-dialog.tsx'
import { findHeldRefund } from '~/models/payment-refund.server.ts'
import { customConfirmRoute } from '~/services/confirm-route.server.ts'
import { refundHeldPayment } from '~/services/payments/refund.server.ts'
import { listBack } from '~/utils/admin-lists.ts'
import { DomainError } from '~/utils/domain-error.ts'
import { useFormatMoney } from '~/utils/hooks.ts'
import { refundSchema } from '~/validation/order.ts'

// /admin/payments/ID/refund: returns held money no order holds (docs/rules.md#refunds) through
// the provider that took it, after a confirmation with a reason in a dialog over the list.

const NS = ['admin-payments', 'admin-orders', 'admin'] as const
export const handle = { i18n: [...NS] }

const route = customConfirmRoute({
  ns: NS,
  find: async (id) => {
    const held = await findHeldRefund(id)
    return held
      ? { amount: held.amount, username: held.user?.username ?? null, refused: null }
      : { amount: null, username: null, refused: 'admin-payments:errors.notHeld' }
  },
  run: ({ id, admin, form }) => {
    const parsed = refundSchema.safeParse({ reason: form.get('reason') ?? undefined })
    if (!parsed.success)
      throw new DomainError(400, parsed.error.issues[0]?.message ?? 'admin-orders:errors.reason')
    return refundHeldPayment(id, admin, parsed.data.reason)
  },
  back: listBack('payments'),
  done: (t) => t('admin-payments:refund.done'),
  errorText: (t, key) => t(key),
})
export const loader = route.loader
export const action = route.action

export default function RefundHeldPaymentRoute() {
  const { thing: held, closeTo } = useLoaderData<typeof loader>()
  const { t } = useTranslation(NS)
  const money = useFormatMoney()
  return (
    <RefundDialog
      title={t('admin-payments:refund.title')}
      description={
        held.refused
          ? t(held.refused)
          : t(held.username ? 'admin-payments:refund.text' : 'admin-payments:refund.textNobody', {
              amount: money(held.amount ?? 0),
              username: held.username ?? '',
            })
      }
      confirmLabel={held.refused ? null : t('admin-payments:refund.confirm')}
      cancelLabel={t('admin-payments:refund.cancel')}
      closeTo={closeTo}
      reasonLabel={t('admin-payments:refund.reason')}
    />
  )
}

export { GeneralErrorBoundary as ErrorBoundary } from '~/components/error-boundary.tsx'
