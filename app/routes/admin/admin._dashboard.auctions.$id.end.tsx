import { useLoaderData, useLocation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { ConfirmRoute } from '~/components/admin/confirm-route.tsx'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { endAuction } from '~/models/admin-auctions.server.ts'
import { auctionNamed } from '~/models/admin-dashboard.server.ts'
import { confirmRoute } from '~/services/confirm-route.server.ts'
import { DASHBOARD_NS, dashboardHref, dashboardUrl } from '~/utils/admin-dashboard.ts'

// /admin/auctions/ID/end: ends a live auction now, after a confirmation in a dialog over the
// dashboard; the last bidder wins.

export const handle = { i18n: [...DASHBOARD_NS] }

const route = confirmRoute({
  ns: DASHBOARD_NS,
  find: (id, { engine }) => auctionNamed(engine, id),
  run: ({ id, context }) => endAuction(context.engine, id),
  back: (request) => dashboardUrl(request),
  done: (t, auction) => t('end.done', { title: auction?.title ?? '' }),
  failed: 'end.failed',
})
export const loader = route.loader
export const action = route.action

export default function EndAuctionRoute() {
  const { thing: auction } = useLoaderData<typeof loader>()
  const { search } = useLocation()
  const { t } = useTranslation(DASHBOARD_NS)
  return (
    <ConfirmRoute
      title={t('end.title', { title: auction?.title ?? '' })}
      description={auction ? t('end.text') : t('form.notFound')}
      confirmLabel={t('end.confirm')}
      closeTo={dashboardHref('', search)}
      returnFocusTo="auctions-heading"
    />
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
