import { useActionData } from '@remix-run/react'
import { ConfirmDialog } from '~/components/admin/confirm-route.tsx'
import { controlClass } from '~/components/ui/field.tsx'
import { REFUND_REASON_MAX } from '~/validation/order.ts'

/**
 * A refund's confirmation over its list (an order's, /admin/orders/ID/refund; held money's,
 * /admin/payments/ID/refund): what goes back, and the reason the admin must give
 * (docs/rules.md#refunds). Without `confirmLabel` there is nothing to refund and no form.
 */
export function RefundDialog({
  reasonLabel,
  ...dialog
}: {
  title: string
  description: string
  confirmLabel: string | null
  cancelLabel: string
  closeTo: string
  /** The label of the reason field. */
  reasonLabel: string
}) {
  const refused = useActionData<{ error?: string }>()
  return (
    <ConfirmDialog {...dialog}>
      <div className="space-y-1">
        <label htmlFor="refund-reason" className="block text-sm font-medium text-slate-800">
          {reasonLabel}
        </label>
        <textarea
          id="refund-reason"
          name="reason"
          required
          minLength={3}
          maxLength={REFUND_REASON_MAX}
          rows={3}
          aria-invalid={refused?.error ? true : undefined}
          className={controlClass}
        />
      </div>
    </ConfirmDialog>
  )
}
