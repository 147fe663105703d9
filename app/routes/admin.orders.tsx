import {
  data,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import { Form, Link, useLoaderData, type ClientLoaderFunctionArgs } from '@remix-run/react'
import i18next from 'i18next'
import { ArrowLeft } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { OrdersTable } from '~/components/admin/orders-table.tsx'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { Pager } from '~/components/pager.tsx'
import { listOrders, OrderError, setOrderStatus } from '~/models/order.server.ts'
import { requireAdmin } from '~/services/admin.server.ts'
import { getFixedT } from '~/services/i18n.server.ts'
import { redirectWithToast } from '~/services/toast.server.ts'
import { pageParam } from '~/utils/http.ts'
import { adminOrderStatusSchema, orderStatuses, type OrderStatusName } from '~/validation/order.ts'
import { readForm } from '~/utils/form.server.ts'

// /admin/orders: won and bought items with their delivery and payment, a status filter and
// the admin's status moves (cash at pickup, shipped, delivered, cancel), all plain forms.

const NS = ['admin-orders', 'orders', 'admin'] as const
export const handle = { i18n: [...NS] }

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
  return { title: t('title'), status, ...list }
}

export async function clientLoader({ serverLoader }: ClientLoaderFunctionArgs) {
  const [loaded] = await Promise.all([
    serverLoader<typeof loader>(),
    i18next.loadNamespaces([...NS]),
  ])
  return loaded
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }]

export async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request)
  const t = await getFixedT(request, [...NS, 'common'])
  const form = await readForm(request)
  const url = new URL(request.url)
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
    if (!(error instanceof OrderError)) throw error
    return redirectWithToast(back, {
      type: 'error',
      title: t('failed'),
      description: t(error.key),
    })
  }
}

export default function AdminOrdersRoute() {
  const { orders, total, page, totalPages, status } = useLoaderData<typeof loader>()
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
      <div className="space-y-2">
        <Link
          to="/admin"
          className="inline-flex items-center gap-1 text-sm font-semibold text-amber-800 underline-offset-2 hover:underline"
        >
          <ArrowLeft aria-hidden className="h-4 w-4" />
          {t('back')}
        </Link>
        <h1 className="text-3xl font-bold">{t('title')}</h1>
        <p className="text-slate-700">{t('lead')}</p>
      </div>

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
        <OrdersTable orders={orders} back={back} />
      )}
      <Pager page={page} totalPages={totalPages} href={(n) => href({ page: String(n) })} />
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
