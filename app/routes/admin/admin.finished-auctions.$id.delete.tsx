import { ConfirmRoute } from '~/components/admin/confirm-route.tsx'
import { deleteFinishedAuction } from '~/models/admin-auctions.server.ts'
import { getAuctionById } from '~/models/auction-live.server.ts'
import { confirmRoute } from '~/services/confirm-route.server.ts'
import { listBack } from '~/utils/admin-lists.ts'

// /admin/finished-auctions/ID/delete: deletes a finished auction with its bids, after a
// confirmation in a dialog over the list (docs/decisions/012-admin-deletes.md).

const NS = ['admin-finished', 'admin'] as const
export const handle = { i18n: [...NS] }

const route = confirmRoute({
  ns: NS,
  find: async (id, { engine }) => (await getAuctionById(engine, id))?.title ?? null,
  texts: (t, title) => ({
    title: title ? t('delete.title', { title }) : t('delete.titleUnknown'),
    description: title ? t('delete.text') : t('delete.notFound'),
    confirm: t('delete.confirm'),
  }),
  run: ({ id, context }) => deleteFinishedAuction(context.engine, id),
  back: listBack('finished'),
  done: (t, title) => (title ? t('delete.done', { title }) : t('delete.doneUnknown')),
  failed: 'delete.failed',
})
export const loader = route.loader
export const action = route.action

export default function DeleteFinishedAuctionRoute() {
  return <ConfirmRoute />
}

export { GeneralErrorBoundary as ErrorBoundary } from '~/components/error-boundary.tsx'
