import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { Form, Link, useLoaderData } from '@remix-run/react'
import { i18nRoute } from '~/utils/i18n-route.ts'
import { CircleAlert, Loader2, Package } from 'lucide-react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { PAYMENTS_NS } from '~/components/topup/package-card.tsx'
import { PaymentPanel } from '~/components/topup/payment-panel.tsx'
import { getUserOrder, orderNotPayable } from '~/models/payment.server.ts'
import { requireUser } from '~/services/guards.server.ts'
import { getFixedT } from '~/i18n/i18next.server.ts'
import { startOrderCheckout } from '~/services/payments/checkout.server.ts'
import { formatDateTime } from '~/utils/dates.ts'
import { useFormatMoney } from '~/utils/hooks.ts'
import { readForm } from '~/utils/form.server.ts'
import { useIsPending } from '~/utils/use-is-pending.ts'
import { titleMeta } from '~/utils/meta.ts'

// /topup/order/{id}: the owner of a won (or bought) item pays price + delivery through the
// payment provider, while the order awaits payment within its 48 hours.
// The trailing underscore keeps the page out of /topup's layout: it stands on its own.

const NS = [PAYMENTS_NS, 'common'] as const
const i18n = i18nRoute(NS)
export const handle = i18n.handle
export const clientLoader = i18n.clientLoader

async function loadOwnOrder(request: Request, id: string) {
  const user = await requireUser(request, { redirectTo: new URL(request.url).pathname })
  const order = await getUserOrder(user.id, id)
  if (!order) {
    const t = await getFixedT(request)
    throw data(t('api.notFound'), { status: 404 })
  }
  return { user, order }
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { order } = await loadOwnOrder(request, params.id ?? '')
  const t = await getFixedT(request, NS)
  return {
    title: t('order.title'),
    order: {
      id: order.id,
      title: order.title,
      price: order.price,
      bids: order.bids,
      deliveryFee: order.deliveryFee,
      deliveryMethod: order.deliveryMethod,
      total: order.total,
      expiresAt: order.expiresAt.toISOString(),
    },
    notPayable: orderNotPayable(order),
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  const t = await getFixedT(request, NS)
  const form = await readForm(request)
  if (form.get('intent') !== 'pay') throw data(t('common:api.invalid'), { status: 400 })
  const { user, order } = await loadOwnOrder(request, params.id ?? '')
  // Checked again at the moment of paying: the page may have been open for a while.
  if (orderNotPayable(order)) throw redirect(`/topup/order/${encodeURIComponent(order.id)}`)
  return redirect(await startOrderCheckout(request, user.id, order, t))
}

export default function OrderPaymentRoute() {
  const { order, notPayable } = useLoaderData<typeof loader>()
  const { t } = useTranslation(PAYMENTS_NS)
  const money = useFormatMoney()
  const busy = useIsPending({ intent: 'pay' })
  return (
    <PaymentPanel id="order-title" icon={Package} title={t('order.title')} width="max-w-lg">
      <dl className="mt-5 space-y-3">
        <Row label={t('order.item')} value={order.title} />
        <Row label={t('order.price')} value={money(order.price)} />
        {order.bids > 0 ? (
          // A bid package: its bids are credited once paid, nothing is delivered.
          <Row label={t('order.bids')} value={t('order.bidsValue', { count: order.bids })} />
        ) : (
          <Row
            label={t('order.delivery')}
            value={
              order.deliveryMethod
                ? `${t(`order.deliveryMethods.${order.deliveryMethod}`)} — ${money(order.deliveryFee)}`
                : '—'
            }
          />
        )}
        <div className="flex justify-between gap-4 border-t border-slate-200 pt-3">
          <dt className="font-semibold">{t('order.total')}</dt>
          <dd className="text-xl font-black text-amber-800">{money(order.total)}</dd>
        </div>
      </dl>
      {notPayable ? (
        <div role="alert" className="mt-6 rounded-lg border border-red-300 bg-red-50 p-4">
          <p className="flex items-center gap-2 font-bold text-red-900">
            <CircleAlert aria-hidden className="h-5 w-5 shrink-0" />
            {t('order.notPayableTitle')}
          </p>
          <p className="mt-1 text-red-900">{t(`order.notPayable.${notPayable}`)}</p>
          <Link
            to="/profile"
            className="mt-3 inline-block rounded-md bg-amber-700 px-4 py-2 font-semibold text-white hover:bg-amber-800"
          >
            {t('order.toProfile')}
          </Link>
        </div>
      ) : (
        <Form method="post" className="mt-6 space-y-3">
          <p className="text-sm text-slate-700">
            {t('order.expiresAt', { date: formatDateTime(order.expiresAt) })}
          </p>
          <button
            type="submit"
            name="intent"
            value="pay"
            disabled={busy}
            className="flex w-full items-center justify-center gap-2 rounded-lg bg-amber-700 px-4 py-3 text-lg font-bold text-white hover:bg-amber-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-amber-400 disabled:opacity-80"
          >
            {busy ? <Loader2 aria-hidden className="h-5 w-5 animate-spin" /> : null}
            {t('order.pay', { total: money(order.total) })}
          </button>
          <p className="text-sm text-slate-600">{t('order.payHint')}</p>
        </Form>
      )}
    </PaymentPanel>
  )
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex justify-between gap-4">
      <dt className="text-slate-600">{label}</dt>
      <dd className="text-right font-medium">{value}</dd>
    </div>
  )
}

export const meta = titleMeta

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
