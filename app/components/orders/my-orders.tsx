import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod'
import { Form, Link, useActionData } from '@remix-run/react'
import { CreditCard, Loader2, Package } from 'lucide-react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { InputField } from '~/components/ui/field.tsx'
import type { OrderView } from '~/models/order.server.ts'
import { formatCountdown, formatDateTime } from '~/utils/dates.ts'
import { useFormatMoney } from '~/utils/hooks.ts'
import { useCountdown } from '~/utils/use-countdown.ts'
import { deliveryMethods, deliverySchema } from '~/validation/order.ts'
import { PHONE_PREFIX } from '~/validation/user-rules.ts'
import { useIsPending } from '~/utils/use-is-pending.ts'
import { EmptyNote } from '~/components/ui/panel.tsx'

// "My orders" on /profile (docs/decisions/016-winner-orders.md): each won or
// bought item with its time left to pay, the delivery form (a plain post to /profile with
// intent=delivery) and, once delivery is chosen, the link to pay. A bid package's order has no
// delivery: its bids, then the link to pay (docs/decisions/077-bid-package-orders-credit-bids.md).

export const ORDERS_NS = 'orders'

type Order = Omit<OrderView, 'auction'> & {
  auction: { id: string; title: string; slug: string; displayId: string }
}
type DeliveryReply = { delivery?: { orderId: string; result: SubmissionResult<string[]> } }

const statusTone: Record<Order['status'], string> = {
  awaiting_payment: 'bg-amber-100 text-amber-900',
  paid: 'bg-emerald-100 text-emerald-900',
  shipped: 'bg-sky-100 text-sky-900',
  delivered: 'bg-emerald-100 text-emerald-900',
  expired: 'bg-slate-200 text-slate-800',
  cancelled: 'bg-slate-200 text-slate-800',
}

export function MyOrders({
  orders,
  defaultPhone,
}: {
  orders: Order[]
  defaultPhone: string | null
}) {
  const { t } = useTranslation(ORDERS_NS)
  return (
    <section aria-labelledby="orders-title" id="orders">
      <h2 id="orders-title" className="text-xl font-semibold">
        {t('title')}
      </h2>
      <p className="mb-3 text-sm text-slate-600">{t('lead')}</p>
      {orders.length === 0 ? (
        <EmptyNote look="page">{t('empty')}</EmptyNote>
      ) : (
        <ul className="space-y-4">
          {orders.map((order) => (
            <OrderCard key={order.id} order={order} defaultPhone={defaultPhone} />
          ))}
        </ul>
      )}
    </section>
  )
}

function OrderCard({ order, defaultPhone }: { order: Order; defaultPhone: string | null }) {
  const { t } = useTranslation(ORDERS_NS)
  const money = useFormatMoney()
  const titleId = `order-${order.id}-title`
  return (
    <li
      id={`order-${order.id}`}
      aria-labelledby={titleId}
      className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 id={titleId} className="font-semibold">
            <Package aria-hidden className="mr-1 inline h-4 w-4 text-amber-700" />
            <Link
              to={`/auction/${order.auction.slug}`}
              className="underline-offset-2 hover:underline"
            >
              {order.auction.title}
            </Link>
          </h3>
          <p className="text-sm text-slate-600">
            {t(`kind.${order.kind}`)}
            {order.kind === 'win' && order.rank > 1 ? ` · ${t('rank', { rank: order.rank })}` : ''}
          </p>
        </div>
        <span
          className={`rounded-full px-3 py-1 text-sm font-semibold ${statusTone[order.status]}`}
        >
          {t(`status.${order.status}`)}
        </span>
      </div>

      <dl className="mt-3 grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-slate-600">{t('price')}</dt>
          <dd className="font-semibold tabular-nums">{money(order.price)}</dd>
        </div>
        <div>
          <dt className="text-slate-600">{order.bids > 0 ? t('bids') : t('deliveryFee')}</dt>
          <dd className="font-semibold">
            {order.bids > 0
              ? t('packageBids', { count: order.bids })
              : order.deliveryMethod
                ? `${t(`delivery.short.${order.deliveryMethod}`)}, ${money(order.deliveryFee)}`
                : '—'}
          </dd>
        </div>
        <div>
          <dt className="text-slate-600">{t('total')}</dt>
          <dd className="font-bold tabular-nums text-amber-800">{money(order.total)}</dd>
        </div>
        <div>
          <dt className="text-slate-600">{t('statusLabel')}</dt>
          <dd>
            <OrderDates order={order} />
          </dd>
        </div>
      </dl>

      {order.payable ? (
        <>
          {order.bids > 0 || order.deliveryMethod === 'regions' ? (
            <p className="mt-2 text-sm text-slate-600">
              {t(order.bids > 0 ? 'packageNote' : 'carrierNote')}
            </p>
          ) : null}
          {order.bids > 0 ? null : <DeliveryForm order={order} defaultPhone={defaultPhone} />}
          <div className="mt-4">
            {order.deliveryMethod || order.bids > 0 ? (
              <Link
                to={`/topup/order/${order.id}`}
                className="inline-flex items-center gap-2 rounded-md bg-emerald-700 px-4 py-2 font-semibold text-white hover:bg-emerald-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400"
              >
                <CreditCard aria-hidden className="h-4 w-4" />
                {t('pay', { amount: money(order.total) })}
              </Link>
            ) : (
              <p className="text-sm text-slate-700">{t('chooseDeliveryFirst')}</p>
            )}
          </div>
        </>
      ) : null}
    </li>
  )
}

function OrderDates({ order }: { order: Order }) {
  const { t } = useTranslation(ORDERS_NS)
  if (order.payable) return <TimeLeft msLeft={order.msLeft ?? 0} expiresAt={order.expiresAt} />
  if (order.status === 'expired') return <span>{t('expiredText')}</span>
  const stamp =
    order.deliveredAt !== null
      ? t(order.bids > 0 ? 'creditedAt' : 'deliveredAt', {
          date: formatDateTime(order.deliveredAt),
        })
      : order.shippedAt !== null
        ? t('shippedAt', { date: formatDateTime(order.shippedAt) })
        : order.paidAt !== null
          ? t('paidAt', { date: formatDateTime(order.paidAt) })
          : null
  return <span>{stamp ?? '—'}</span>
}

/** The server's text first (works without JS); a live countdown once hydrated. */
function TimeLeft({ msLeft, expiresAt }: { msLeft: number; expiresAt: string }) {
  const { t } = useTranslation(ORDERS_NS)
  const left = useCountdown(msLeft)
  const minutes = Math.floor(msLeft / 60_000)
  const text =
    left === null
      ? t('hours', { hours: Math.floor(minutes / 60), minutes: minutes % 60 })
      : formatCountdown(left)
  return (
    <span className="block">
      <span role="timer" className="font-semibold tabular-nums">
        {t('timeLeft', { time: text })}
      </span>
      <span className="block text-xs text-slate-600">
        {t('payBy', { date: formatDateTime(expiresAt) })}
      </span>
    </span>
  )
}

function DeliveryForm({ order, defaultPhone }: { order: Order; defaultPhone: string | null }) {
  const { t } = useTranslation(ORDERS_NS)
  const actionData = useActionData<DeliveryReply>()
  const lastResult =
    actionData?.delivery?.orderId === order.id ? actionData.delivery.result : undefined
  const [form, fields] = useForm({
    id: `delivery-${order.id}`,
    lastResult,
    constraint: getZodConstraint(deliverySchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    defaultValue: {
      deliveryMethod: order.deliveryMethod ?? '',
      address: order.address ?? '',
      phone: order.phone ?? defaultPhone ?? PHONE_PREFIX,
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: deliverySchema }),
  })
  const saving = useIsPending({
    intent: 'delivery',
    formData: { orderId: order.id },
    state: 'submitting',
  })
  const methodError = fields.deliveryMethod.errors?.[0]
  const formError = form.errors?.[0]
  const chosen = fields.deliveryMethod.value ?? order.deliveryMethod ?? ''
  return (
    <Form
      method="post"
      action="/profile"
      preventScrollReset
      {...getFormProps(form)}
      className="mt-4 space-y-3 rounded-lg bg-slate-50 p-4"
    >
      <input type="hidden" name="orderId" value={order.id} />
      <fieldset
        aria-describedby={methodError ? `${fields.deliveryMethod.id}-error` : undefined}
        aria-invalid={methodError ? true : undefined}
      >
        <legend className="mb-2 font-semibold">{t('delivery.method')}</legend>
        <div className="space-y-1">
          {deliveryMethods.map((method) => (
            <label key={method} className="flex items-start gap-2 text-sm">
              <input
                type="radio"
                name={fields.deliveryMethod.name}
                value={method}
                defaultChecked={chosen === method}
                className="mt-1 accent-amber-700"
              />
              <span>{t(`delivery.methods.${method}`)}</span>
            </label>
          ))}
        </div>
        {methodError ? (
          <p
            id={`${fields.deliveryMethod.id}-error`}
            role="alert"
            className="mt-1 text-sm text-red-700"
          >
            {t(methodError)}
          </p>
        ) : null}
      </fieldset>
      <div className="grid gap-3 sm:grid-cols-2">
        <InputField
          meta={fields.address}
          label={t('delivery.address')}
          hint={t('delivery.addressHint')}
          autoComplete="street-address"
        />
        <InputField
          meta={fields.phone}
          type="tel"
          label={t('delivery.phone')}
          hint={t('delivery.phoneHint')}
          autoComplete="tel"
          inputMode="tel"
          placeholder="+996XXXXXXXXX"
        />
      </div>
      {formError ? (
        <p role="alert" className="text-sm text-red-700">
          {t(formError)}
        </p>
      ) : null}
      <button
        type="submit"
        name="intent"
        value="delivery"
        disabled={saving}
        className="flex items-center gap-2 rounded-md border border-amber-700 bg-white px-4 py-2 font-semibold text-amber-800 hover:bg-amber-50 disabled:opacity-70"
      >
        {saving ? <Loader2 aria-hidden className="h-4 w-4 animate-spin" /> : null}
        {order.deliveryMethod ? t('delivery.change') : t('delivery.save')}
      </button>
    </Form>
  )
}
