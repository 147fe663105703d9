import { AdminPageHeader } from '~/components/admin/page-header.tsx'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { Form, Outlet, useLoaderData, useLocation } from '@remix-run/react'
import { i18nRoute } from '~/utils/i18n-route.ts'
import { useTranslation } from '~/i18n/use-translation.ts'
import { OrdersTable } from '~/components/admin/orders-table.tsx'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { Pager } from '~/components/pager.tsx'
import { DomainError } from '~/utils/domain-error.ts'
import { listOrders } from '~/models/admin-orders.server.ts'
import { setOrderStatus } from '~/services/order-status.server.ts'
import { requireAdmin } from '~/services/guards.server.ts'
import { getFixedT } from '~/i18n/i18next.server.ts'
import { redirectWithToast } from '~/services/toast.server.ts'
import { readForm } from '~/utils/form.server.ts'
import { pageParam } from '~/utils/http.ts'
import { listHref } from '~/utils/admin-lists.ts'
import { OLD_DIALOGS, redirectOldDialog } from '~/utils/old-dialogs.server.ts'
import { adminOrderStatusSchema, orderStatuses, type OrderStatusName } from '~/validation/order.ts'
import { Button } from '~/components/ui/button.tsx'
import { ControlField, controlBase } from '~/components/ui/field.tsx'
import { titleMeta } from '~/utils/meta.ts'
import { EmptyNote } from '~/components/ui/panel.tsx'

// /admin/orders: won and bought items with their delivery and payment, a status filter and
// the admin's status moves (cash at pickup, shipped, delivered, cancel), all plain forms. An
// order's refund is a child route (admin.orders.$id.refund.tsx) shown in the <Outlet />: a
// dialog that asks for the reason (docs/rules.md#refunds).

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
  redirectOldDialog(request, OLD_DIALOGS.orders)
  const t = await getFixedT(request, NS)
  const params = new URL(request.url).searchParams
  const status = statusParam(params.get('status'))
  const list = await listOrders({ status, page: pageParam(params.get('page')) })
  return { title: t('title'), status, ...list }
}

export const meta = titleMeta

export async function action({ request, context }: ActionFunctionArgs) {
  const t = await getFixedT(request, [...NS, 'common'])
  await requireAdmin(request)
  const form = await readForm(request)
  const url = new URL(request.url)
  const back = `${url.pathname}${url.search}`
  const parsed = adminOrderStatusSchema.safeParse({ status: form.get('intent') })
  if (!parsed.success) throw data(t('errors.status'), { status: 400 })
  try {
    const order = await setOrderStatus(
      context.engine,
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

export default function AdminOrdersRoute() {
  const { orders, total, page, totalPages, status } = useLoaderData<typeof loader>()
  const { search } = useLocation()
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
        <ControlField id="orders-status" label={t('filter.label')}>
          <select
            id="orders-status"
            name="status"
            defaultValue={status ?? ''}
            key={status ?? ''}
            className={controlBase}
          >
            <option value="">{t('filter.all')}</option>
            {orderStatuses.map((value) => (
              <option key={value} value={value}>
                {t(`orders:status.${value}`)}
              </option>
            ))}
          </select>
        </ControlField>
        <Button>{t('filter.apply')}</Button>
      </Form>
      <p role="status" className="text-sm text-slate-700">
        {t('count', { count: total })}
      </p>

      {orders.length === 0 ? (
        <EmptyNote look="page">{t('empty')}</EmptyNote>
      ) : (
        <OrdersTable
          orders={orders}
          back={back}
          refundHref={(id) => listHref('orders', search, `/${encodeURIComponent(id)}/refund`)}
        />
      )}
      <Outlet />
      <Pager page={page} totalPages={totalPages} href={(n) => href({ page: String(n) })} />
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
