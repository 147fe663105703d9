import { useLoaderData, useLocation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { ConfirmRoute } from '~/components/admin/confirm-route.tsx'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { deleteAuction } from '~/models/admin-auctions.server.ts'
import { auctionNamed } from '~/models/admin-dashboard.server.ts'
import { confirmRoute } from '~/services/confirm-route.server.ts'
import { DASHBOARD_NS, dashboardHref, dashboardUrl } from '~/utils/admin-dashboard.ts'

// /admin/auctions/ID/delete: deletes an upcoming auction (its prebids go back to their owners),
// after a confirmation in a dialog over the dashboard; see docs/decisions/012-admin-deletes.md.

export const handle = { i18n: [...DASHBOARD_NS] }

const route = confirmRoute({
  ns: DASHBOARD_NS,
  find: (id, { engine }) => auctionNamed(engine, id),
  run: ({ id, context }) => deleteAuction(context.engine, id),
  back: (request) => dashboardUrl(request),
  done: (t, auction) => t('delete.done', { title: auction?.title ?? '' }),
  failed: 'delete.failed',
})
export const loader = route.loader
export const action = route.action

export default function DeleteAuctionRoute() {
  const { thing: auction } = useLoaderData<typeof loader>()
  const { search } = useLocation()
  const { t } = useTranslation(DASHBOARD_NS)
  return (
    <ConfirmRoute
      title={t('delete.title', { title: auction?.title ?? '' })}
      description={
        !auction
          ? t('form.notFound')
          : auction.upcoming
            ? t('delete.textUpcoming', { count: auction.prebids })
            : t('delete.text')
      }
      confirmLabel={t('delete.confirm')}
      closeTo={dashboardHref('', search)}
      returnFocusTo="auctions-heading"
    />
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
