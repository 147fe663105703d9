import { type LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData, useLocation } from '@remix-run/react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { FinishedStats } from '~/components/admin/finished-stats.tsx'
import { DetailsDialog } from '~/components/admin/url-dialog.tsx'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { auctionStats } from '~/models/admin-finished.server.ts'
import { getAuctionById } from '~/models/auction-view.server.ts'
import { requireAdmin } from '~/services/guards.server.ts'
import { listHref } from '~/utils/admin-lists.ts'
import { nullIfRefused } from '~/utils/domain-error.ts'

// /admin/finished-auctions/ID/stats: a finished auction's statistics, in a dialog over the list.

const NS = ['admin-finished', 'admin'] as const
export const handle = { i18n: [...NS] }

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireAdmin(request)
  const id = params.id ?? ''
  const [auction, stats] = await Promise.all([
    getAuctionById(context.engine, id),
    // A missing auction is the dialog's message, not an error page.
    nullIfRefused(auctionStats(id)),
  ])
  return { title: auction?.title ?? null, stats }
}

export default function FinishedStatsRoute() {
  const { title, stats } = useLoaderData<typeof loader>()
  const { search } = useLocation()
  const { t } = useTranslation(NS)
  return (
    <DetailsDialog
      closeTo={listHref('finished', search)}
      title={title ? t('stats.title', { title }) : t('stats.titleUnknown')}
      failed={t('stats.failed')}
    >
      {stats ? <FinishedStats stats={stats} /> : null}
    </DetailsDialog>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
