import { AdminPageHeader } from '~/components/admin/page-header.tsx'
import {
  data,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { i18nRoute } from '~/utils/i18n-route.ts'
import { useTranslation } from 'react-i18next'
import { OrdersTable } from '~/components/admin/orders-table.tsx'
import { UrlDialog } from '~/components/admin/url-dialog.tsx'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { Pager } from '~/components/pager.tsx'
import { DomainError } from '~/utils/domain-error.ts'
import { getAdminOrder, listOrders, setOrderStatus } from '~/models/order.server.ts'
import { requireAdmin } from '~/services/admin.server.ts'
import { getFixedT } from '~/services/i18n.server.ts'
import { refundOrder } from '~/services/payments/refund.server.ts'
import { redirectWithToast } from '~/services/toast.server.ts'
import { readForm } from '~/utils/form.server.ts'
import { useFormatMoney } from '~/utils/hooks.ts'
import { pageParam } from '~/utils/http.ts'
import {
  adminOrderStatusSchema,
  orderStatuses,
  REFUND_REASON_MAX,
  refundCandidate,
  refundSchema,
  type OrderStatusName,
} from '~/validation/order.ts'

// /admin/orders: won and bought items with their delivery and payment, a status filter and
// the admin's status moves (cash at pickup, shipped, delivered, cancel), all plain forms.
// `?refund=ID` opens the refund's confirmation (a dialog, or a section without JavaScript),
// which asks for the reason and posts intent=refund (docs/rules.md#refunds).

const NS = ['admin-orders', 'orders', 'admin'] as const
const i18n = i18nRoute(NS)
export const handle = i18n.handle
export const clientLoader = i18n.clientLoader

function statusParam(value: string | null): OrderStatusName | null {
  return (orderStatuses as readonly string[]).includes(value ?? '')
    ? (value as OrderStatusName)
    : null
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request)
  const t = await getFixedT(request, NS)
  const params = new URL(request.url).searchParams
  const status = statusParam(params.get('status'))
  const list = await listOrders({ status, page: pageParam(params.get('page')) })
  const refundId = params.get('refund')
  const order = refundId ? await getAdminOrder(refundId) : null
  const candidate = order ? refundCandidate(order.status, order.payments) : null
  const refund =
    refundId === null
      ? null
      : {
          id: refundId.slice(0, 64),
          title: order?.auction.title ?? null,
          username: order?.user.username ?? null,
          amount: candidate && 'payment' in candidate ? candidate.payment.amount : null,
          cancelOrder: candidate && 'payment' in candidate ? candidate.cancelOrder : false,
          refused: order
            ? candidate && 'refused' in candidate
              ? candidate.refused
              : null
            : 'errors.notFound',
        }
  return { title: t('title'), status, refund, ...list }
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }]

export async function action({ request }: ActionFunctionArgs) {
  const t = await getFixedT(request, [...NS, 'common'])
  const admin = await requireAdmin(request)
  const form = await readForm(request)
  const url = new URL(request.url)
  if (form.get('intent') === 'refund') return refundAction(t, url, form, admin)
  const back = `${url.pathname}${url.search}`
  const parsed = adminOrderStatusSchema.safeParse({ status: form.get('intent') })
  if (!parsed.success) throw data(t('errors.status'), { status: 400 })
  try {
    const order = await setOrderStatus(
      String(form.get('id') ?? '').slice(0, 64),
      parsed.data.status,
    )
    return redirectWithToast(back, {
      type: 'success',
      description: t('done', {
        title: order.auction.title,
        status: t(`orders:status.${order.status}`),
      }),
    })
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    return redirectWithToast(back, {
      type: 'error',
      title: t('failed'),
      description: t(error.key),
    })
  }
}

/** intent=refund from the dialog: back to the list with a toast, or the dialog with why not. */
async function refundAction(
  t: Awaited<ReturnType<typeof getFixedT>>,
  url: URL,
  form: FormData,
  admin: { id: string },
) {
  const id = String(form.get('id') ?? '').slice(0, 64)
  const parsed = refundSchema.safeParse({ reason: form.get('reason') ?? undefined })
  if (!parsed.success)
    return data({ refundError: t(parsed.error.issues[0]?.message ?? 'errors.reason') }, 400)
  try {
    const refund = await refundOrder(id, admin, parsed.data.reason)
    const order = await getAdminOrder(refund.orderId)
    url.searchParams.delete('refund')
    return redirectWithToast(`${url.pathname}${url.search}`, {
      type: 'success',
      description: t('refund.done', { title: order?.auction.title ?? '' }),
    })
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    return data({ refundError: t(error.key) }, error.status)
  }
}

export default function AdminOrdersRoute() {
  const { orders, total, page, totalPages, status, refund } = useLoaderData<typeof loader>()
  const { t } = useTranslation(NS)
  const href = (extra: Record<string, string>) => {
    const params = new URLSearchParams()
    if (status) params.set('status', status)
    for (const [key, value] of Object.entries(extra)) params.set(key, value)
    const query = params.toString()
    return `/admin/orders${query ? `?${query}` : ''}`
  }
  const back = href(page > 1 ? { page: String(page) } : {})
  return (
    <div className="space-y-6">
      <AdminPageHeader back={t('back')} title={t('title')} lead={t('lead')} />

      <Form method="get" action="/admin/orders" className="flex flex-wrap items-end gap-2">
        <div className="space-y-1">
          <label htmlFor="orders-status" className="block text-sm font-medium text-slate-800">
            {t('filter.label')}
          </label>
          <select
            id="orders-status"
            name="status"
            defaultValue={status ?? ''}
            key={status ?? ''}
            className="rounded-md border border-slate-300 bg-white px-3 py-2 shadow-sm focus:border-amber-500 focus:outline-none focus:ring-2 focus:ring-amber-200"
          >
            <option value="">{t('filter.all')}</option>
            {orderStatuses.map((value) => (
              <option key={value} value={value}>
                {t(`orders:status.${value}`)}
              </option>
            ))}
          </select>
        </div>
        <button
          type="submit"
          className="rounded-md bg-amber-700 px-4 py-2 font-semibold text-white hover:bg-amber-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-amber-400 focus-visible:ring-offset-2"
        >
          {t('filter.apply')}
        </button>
      </Form>
      <p role="status" className="text-sm text-slate-700">
        {t('count', { count: total })}
      </p>

      {orders.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 p-6 text-center text-slate-600">
          {t('empty')}
        </p>
      ) : (
        <OrdersTable
          orders={orders}
          back={back}
          refundHref={(id) => href({ ...(page > 1 ? { page: String(page) } : {}), refund: id })}
        />
      )}
      {refund ? <RefundDialog refund={refund} closeTo={back} /> : null}
      <Pager page={page} totalPages={totalPages} href={(n) => href({ page: String(n) })} />
    </div>
  )
}

function RefundDialog({
  refund,
  closeTo,
}: {
  refund: NonNullable<ReturnType<typeof useLoaderData<typeof loader>>['refund']>
  closeTo: string
}) {
  const { t } = useTranslation(NS)
  const money = useFormatMoney()
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'refund'
  const error = actionData && 'refundError' in actionData ? actionData.refundError : null
  return (
    <UrlDialog
      open
      closeTo={closeTo}
      title={t('refund.title', { title: refund.title ?? '' })}
      description={
        refund.refused
          ? t(refund.refused)
          : t(refund.cancelOrder ? 'refund.text' : 'refund.textHeld', {
              amount: money(refund.amount ?? 0),
              username: refund.username ?? '',
            })
      }
    >
      {error ? (
        <p
          role="alert"
          className="mb-3 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800"
        >
          {error}
        </p>
      ) : null}
      {refund.refused ? null : (
        <Form method="post" className="space-y-3">
          <input type="hidden" name="intent" value="refund" />
          <input type="hidden" name="id" value={refund.id} />
          <div className="space-y-1">
            <label htmlFor="refund-reason" className="block text-sm font-medium text-slate-800">
              {t('refund.reason')}
            </label>
            <textarea
              id="refund-reason"
              name="reason"
              required
              minLength={3}
              maxLength={REFUND_REASON_MAX}
              rows={3}
              aria-invalid={error ? true : undefined}
              className="w-full rounded-md border border-slate-300 px-3 py-2 shadow-sm focus:border-amber-500 focus:outline-none focus:ring-2 focus:ring-amber-200"
            />
          </div>
          <div className="flex flex-wrap justify-end gap-2">
            <Link
              to={closeTo}
              preventScrollReset
              className="rounded-md border border-slate-300 px-4 py-2 font-semibold hover:bg-slate-50"
            >
              {t('refund.cancel')}
            </Link>
            <button
              type="submit"
              disabled={busy}
              className="rounded-md bg-red-700 px-4 py-2 font-semibold text-white hover:bg-red-800 disabled:opacity-70"
            >
              {t('refund.confirm')}
            </button>
          </div>
        </Form>
      )}
    </UrlDialog>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
