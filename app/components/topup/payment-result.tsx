import { Link, useLocation, useRevalidator } from '@remix-run/react'
import { CheckCircle2, Clock, XCircle } from 'lucide-react'
import { useEffect } from 'react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { useFormatMoney } from '~/utils/hooks.ts'
import { PAYMENTS_NS } from './package-card.tsx'

export type PaymentResultView = {
  id: string
  purpose: 'package' | 'order'
  bids: number
  amount: number
  status: 'pending' | 'paid' | 'failed' | 'cancelled' | 'held' | 'refunded'
  failureReason: string | null
  itemTitle: string | null
}

const POLL_MS = 2000

/** How a checkout ended, shown on /topup?payment={id} when the payer comes back. */
export function PaymentResult({ payment }: { payment: PaymentResultView }) {
  const { t } = useTranslation(PAYMENTS_NS)
  const money = useFormatMoney()
  const location = useLocation()
  const revalidator = useRevalidator()
  const pending = payment.status === 'pending'

  // The provider's webhook may arrive after the payer: with JavaScript, look again shortly.
  useEffect(() => {
    if (!pending) return
    const timer = setInterval(() => {
      if (revalidator.state === 'idle') revalidator.revalidate()
    }, POLL_MS)
    return () => clearInterval(timer)
  }, [pending, revalidator])

  const paid = payment.status === 'paid'
  const refund = paid && payment.failureReason === 'order_not_payable'
  const held = payment.status === 'held'
  const tone = refund || !paid ? (pending || held ? 'amber' : 'red') : 'green'
  const Icon = pending || held ? Clock : paid && !refund ? CheckCircle2 : XCircle
  const message = pending
    ? t('result.pending')
    : held
      ? t('result.held', { id: payment.id })
      : payment.status === 'refunded'
        ? t('result.refunded')
        : !paid
          ? t('result.failed')
          : payment.purpose === 'package'
            ? t('result.paidPackage', { count: payment.bids })
            : refund
              ? t('result.orderNotPayable', { title: payment.itemTitle ?? '', id: payment.id })
              : t('result.paidOrder', { title: payment.itemTitle ?? '' })
  const colours = {
    green: 'border-green-300 bg-green-50 text-green-900',
    amber: 'border-amber-300 bg-amber-50 text-amber-900',
    red: 'border-red-300 bg-red-50 text-red-900',
  }[tone]
  return (
    <section
      role="status"
      aria-labelledby="payment-result-title"
      className={`rounded-xl border p-5 ${colours}`}
    >
      <h2 id="payment-result-title" className="flex items-center gap-2 text-lg font-bold">
        <Icon aria-hidden className="h-6 w-6 shrink-0" />
        {t('result.title')}
      </h2>
      <p className="mt-2 text-base font-semibold">{message}</p>
      <p className="mt-1 text-sm">
        {t('result.amount', { amount: money(payment.amount) })} ·{' '}
        {t('result.reference', { id: payment.id })}
      </p>
      {pending ? (
        <Link
          to={location.pathname + location.search}
          className="mt-3 inline-block rounded-md border border-amber-400 bg-white px-3 py-1.5 text-sm font-semibold hover:bg-amber-100"
        >
          {t('result.refresh')}
        </Link>
      ) : null}
    </section>
  )
}
