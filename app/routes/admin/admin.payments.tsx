import { AdminPageHeader } from '~/components/admin/page-header.tsx'
import type { LoaderFunctionArgs } from '@remix-run/node'
import { Link, Outlet, useLoaderData, useLocation } from '@remix-run/react'
import { i18nRoute } from '~/utils/i18n-route.ts'
import { useTranslation } from '~/i18n/use-translation.ts'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { Pager } from '~/components/pager.tsx'
import { listPayments } from '~/models/payment-admin.server.ts'
import { requireAdminT } from '~/services/guards.server.ts'
import { formatDateTime } from '~/utils/dates.ts'
import { useFormatMoney } from '~/utils/hooks.ts'
import { pageParam } from '~/utils/http.ts'
import { paymentStatuses, paymentStatusParam } from '~/validation/payment-status.ts'
import { titleMeta } from '~/utils/meta.ts'
import { EmptyNote } from '~/components/ui/panel.tsx'
import { Table } from '~/components/ui/table.tsx'
import { listHref } from '~/utils/admin-lists.ts'

// /admin/payments: every payment attempt by status (links, no JavaScript needed), 20 a page,
// newest first; pending ones older than ten minutes are being reconciled (docs/payments.md).
// Each shows why it is held or how it was refunded (by an admin, or by the provider, with the
// bids a refunded package took back and those left with the buyer). Held money no order holds
// has a Refund link: a child route (admin.payments.$id.refund.tsx) shown in the <Outlet />.

const NS = ['admin-payments', 'admin'] as const
const i18n = i18nRoute(NS)
export const handle = i18n.handle
export const clientLoader = i18n.clientLoader

export async function loader({ request }: LoaderFunctionArgs) {
  const t = await requireAdminT(request, NS)
  const params = new URL(request.url).searchParams
  const status = paymentStatusParam(params.get('status'))
  const list = await listPayments({ status, page: pageParam(params.get('page')) })
  return { title: t('title'), status, ...list }
}

export const meta = titleMeta

export default function AdminPaymentsRoute() {
  const { payments, total, page, totalPages, status } = useLoaderData<typeof loader>()
  const { search } = useLocation()
  const { t } = useTranslation(NS)
  const money = useFormatMoney()
  const href = (next: { status?: string | null; page?: number }) => {
    const params = new URLSearchParams()
    const chosen = next.status === undefined ? status : next.status
    if (chosen) params.set('status', chosen)
    if (next.page && next.page > 1) params.set('page', String(next.page))
    const query = params.toString()
    return `/admin/payments${query ? `?${query}` : ''}`
  }
  const filters: { value: string | null; label: string }[] = [
    { value: null, label: t('filter.all') },
    ...paymentStatuses.map((value) => ({ value, label: t(`status.${value}`) })),
  ]
  return (
    <div className="space-y-6">
      <AdminPageHeader back={t('back')} title={t('title')} lead={t('lead')} />

      <nav aria-label={t('filter.label')}>
        <ul className="flex flex-wrap gap-2">
          {filters.map((filter) => {
            const current = (filter.value ?? null) === (status ?? null)
            return (
              <li key={filter.value ?? 'all'}>
                <Link
                  to={href({ status: filter.value, page: 1 })}
                  aria-current={current ? 'page' : undefined}
                  className={`inline-block rounded-full border px-3 py-1 text-sm font-semibold ${
                    current
                      ? 'border-amber-700 bg-amber-700 text-white'
                      : 'border-slate-300 bg-white text-slate-800 hover:border-amber-500'
                  }`}
                >
                  {filter.label}
                </Link>
              </li>
            )
          })}
        </ul>
      </nav>
      <p role="status" className="text-sm text-slate-700">
        {t('count', { count: total })}
      </p>

      {payments.length === 0 ? (
        <EmptyNote look="page">{t('empty')}</EmptyNote>
      ) : (
        <Table
          caption={t('caption')}
          columns={(
            [
              'created',
              'user',
              'purpose',
              'amount',
              'provider',
              'transaction',
              'status',
              'reason',
              'actions',
            ] as const
          ).map((column) => t(`table.${column}`))}
          width="fit"
          look="records"
          dense
        >
          {payments.map((payment) => (
            <tr key={payment.id} data-payment-id={payment.id}>
              <td className="whitespace-nowrap px-3 py-2">{formatDateTime(payment.createdAt)}</td>
              <td className="px-3 py-2">
                {payment.user ? payment.user.username : t('deletedUser')}
              </td>
              <td className="px-3 py-2">
                {payment.orderId
                  ? t('purpose.order')
                  : payment.bids > 0
                    ? t('purpose.package', { count: payment.bids })
                    : '—'}
              </td>
              <td className="px-3 py-2 tabular-nums">{money(payment.amount)}</td>
              <td className="px-3 py-2">{payment.provider}</td>
              <td className="px-3 py-2 font-mono text-xs">
                {payment.providerTxnId ?? payment.providerPaymentId ?? '—'}
              </td>
              <td className="px-3 py-2">{t(`status.${payment.status}`)}</td>
              <td className="space-y-1 px-3 py-2">
                <p>
                  {payment.failureReason
                    ? t(`reason.${payment.failureReason}`, {
                        defaultValue: payment.failureReason,
                      })
                    : payment.refundedAt
                      ? null
                      : '—'}
                </p>
                {payment.refundedAt ? (
                  <p>
                    {t('refunded', {
                      date: formatDateTime(payment.refundedAt),
                      reason: payment.refundedBy
                        ? (payment.refundReason ?? '')
                        : t(`reason.${payment.refundReason ?? 'refunded'}`, {
                            defaultValue: payment.refundReason ?? '',
                          }),
                    })}
                  </p>
                ) : null}
                {payment.bidsTakenBack !== null ? (
                  <p className={payment.bidsOwed ? 'font-semibold text-amber-800' : undefined}>
                    {t(payment.bidsOwed ? 'bidsOwed' : 'bidsTakenBack', {
                      taken: payment.bidsTakenBack,
                      owed: payment.bidsOwed ?? 0,
                    })}
                  </p>
                ) : null}
              </td>
              <td className="px-3 py-2">
                {payment.status === 'held' && !payment.orderId ? (
                  <Link
                    to={listHref('payments', search, `/${encodeURIComponent(payment.id)}/refund`)}
                    className="font-semibold text-amber-800 underline hover:text-amber-900"
                  >
                    {t('refund.open')}
                  </Link>
                ) : null}
              </td>
            </tr>
          ))}
        </Table>
      )}
      <Outlet />
      <Pager page={page} totalPages={totalPages} href={(n) => href({ page: n })} />
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
