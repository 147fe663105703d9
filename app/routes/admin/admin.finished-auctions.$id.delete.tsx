import { deleteFinishedAuction } from '~/models/admin-auctions.server.ts'
import { getAuctionById } from '~/models/auction-view.server.ts'
import { confirmRoute } from '~/services/confirm-route.server.ts'
import { listBack } from '~/utils/admin-lists.ts'

// /admin/finished-auctions/ID/delete: deletes a finished auction with its bids, after a
// confirmation in a dialog over the list (docs/decisions/012-admin-deletes.md).

export const handle = { i18n: ['admin-finished', 'admin'] as const }
const { loader, action } = confirmRoute({
  ns: handle.i18n,
  keys: 'delete',
  find: async (id, { engine }) => (await getAuctionById(engine, id))?.title ?? null,
  gone: 'delete.notFound',
  run: ({ id, context }) => deleteFinishedAuction(context.engine, id),
  back: listBack('finished'),
})
export { loader, action }
export { ConfirmRoute as default, ErrorBoundary } from '~/components/admin/confirm-route.tsx'
