import type { LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { AdminPageHeader } from '~/components/admin/page-header.tsx'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { Table } from '~/components/ui/table.tsx'
import { requireAdminT } from '~/services/guards.server.ts'
import { getAlertMetrics } from '~/services/alerts/metrics.server.ts'
import { formatDateTime } from '~/utils/dates.ts'
import { i18nRoute } from '~/utils/i18n-route.ts'
import { titleMeta } from '~/utils/meta.ts'

// /admin/alerts: the alert queue's length, what each channel sent and failed, and the dead
// letters (docs/operations.md#the-alert-queue).

const NS = ['alerts'] as const
const i18n = i18nRoute(NS)
export const handle = i18n.handle
export const clientLoader = i18n.clientLoader

export async function loader({ request }: LoaderFunctionArgs) {
  const t = await requireAdminT(request, NS)
  return { title: t('admin.title'), ...(await getAlertMetrics()) }
}

export const meta = titleMeta

export default function AdminAlertsRoute() {
  const { queue, channels, deadLetters } = useLoaderData<typeof loader>()
  const { t } = useTranslation(NS)
  const figures = [
    { label: t('admin.waiting'), value: queue.waiting, id: 'waiting' },
    { label: t('admin.delayed'), value: queue.delayed, id: 'delayed' },
    { label: t('admin.pending'), value: queue.pending, id: 'pending' },
  ]
  return (
    <div className="space-y-6">
      <AdminPageHeader back={t('admin.back')} title={t('admin.title')} lead={t('admin.lead')} />
      <section aria-labelledby="queue-title" className="space-y-3">
        <h2 id="queue-title" className="text-xl font-semibold">
          {t('admin.queue')}
        </h2>
        <dl className="grid gap-3 sm:grid-cols-3">
          {figures.map((figure) => (
            <div key={figure.id} className="rounded-xl border border-slate-200 bg-white p-4">
              <dt className="text-sm text-slate-600">{figure.label}</dt>
              <dd className="text-2xl font-bold tabular-nums" data-testid={`queue-${figure.id}`}>
                {figure.value}
              </dd>
            </div>
          ))}
        </dl>
      </section>
      <Table
        caption={t('admin.channel')}
        width="md"
        dense
        columns={[
          t('admin.channel'),
          { label: t('admin.sent'), numeric: true },
          { label: t('admin.unsent'), numeric: true },
          { label: t('admin.failed'), numeric: true },
          { label: t('admin.dead'), numeric: true },
        ]}
      >
        {channels.map((row) => (
          <tr key={row.channel} className="border-t border-slate-100">
            <th scope="row" className="px-4 py-2 font-semibold">
              {t(`channels.${row.channel}`)}
            </th>
            <td className="px-4 py-2 text-right tabular-nums">{row.sent}</td>
            <td className="px-4 py-2 text-right tabular-nums">{row.unsent}</td>
            <td className="px-4 py-2 text-right tabular-nums">{row.failed}</td>
            <td className="px-4 py-2 text-right tabular-nums">{row.dead}</td>
          </tr>
        ))}
      </Table>
      <section aria-labelledby="dead-title" className="space-y-3">
        <h2 id="dead-title" className="text-xl font-semibold">
          {t('admin.deadTitle')}
        </h2>
        {deadLetters.length === 0 ? (
          <p className="text-slate-600">{t('admin.deadEmpty')}</p>
        ) : (
          <Table
            caption={t('admin.deadTitle')}
            dense
            columns={[
              t('admin.at'),
              t('admin.user'),
              t('admin.channel'),
              t('admin.kind'),
              t('admin.key'),
              { label: t('admin.attempts'), numeric: true },
              t('admin.error'),
            ]}
          >
            {deadLetters.map((row) => (
              <tr key={row.id} className="border-t border-slate-100">
                <td className="px-4 py-2">{formatDateTime(row.createdAt)}</td>
                <td className="px-4 py-2">{row.user.username}</td>
                <td className="px-4 py-2">{t(`channels.${row.channel}`)}</td>
                <td className="px-4 py-2">{t(`kinds.${row.kind}`)}</td>
                <td className="px-4 py-2 font-mono text-xs">{row.key}</td>
                <td className="px-4 py-2 text-right tabular-nums">{row.attempts}</td>
                <td className="px-4 py-2">{row.error}</td>
              </tr>
            ))}
          </Table>
        )}
      </section>
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
