import { useLoaderData, useLocation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { ConfirmRoute } from '~/components/admin/confirm-route.tsx'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { deleteFinishedAuction } from '~/models/admin-auctions.server.ts'
import { getAuctionById } from '~/models/auction-live.server.ts'
import { confirmRoute } from '~/services/confirm-route.server.ts'
import { listHref, listUrl } from '~/utils/admin-lists.ts'

// /admin/finished-auctions/ID/delete: deletes a finished auction with its bids, after a
// confirmation in a dialog over the list (docs/decisions/012-admin-deletes.md).

const NS = ['admin-finished', 'admin'] as const
export const handle = { i18n: [...NS] }

const route = confirmRoute({
  ns: NS,
  find: async (id, { engine }) => (await getAuctionById(engine, id))?.title ?? null,
  run: ({ id, context }) => deleteFinishedAuction(context.engine, id),
  back: (request) => listUrl('finished', request),
  done: (t, title) => (title ? t('delete.done', { title }) : t('delete.doneUnknown')),
  failed: 'delete.failed',
})
export const loader = route.loader
export const action = route.action

export default function DeleteFinishedAuctionRoute() {
  const { thing: title } = useLoaderData<typeof loader>()
  const { search } = useLocation()
  const { t } = useTranslation(NS)
  return (
    <ConfirmRoute
      title={title ? t('delete.title', { title }) : t('delete.titleUnknown')}
      description={title ? t('delete.text') : t('delete.notFound')}
      confirmLabel={t('delete.confirm')}
      closeTo={listHref('finished', search)}
    />
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
