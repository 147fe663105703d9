import { deleteUser } from '~/services/delete-user.server.ts'
import { getUserView } from '~/models/user-view.server.ts'
import { confirmRoute } from '~/services/confirm-route.server.ts'
import { listBack } from '~/utils/admin-lists.ts'

// /admin/users/ID/delete: deletes an account after a confirmation in a dialog over the list
// (docs/decisions/012-admin-deletes.md); an admin cannot delete themself.

export const handle = { i18n: ['admin-users', 'admin'] as const }
const { loader, action } = confirmRoute({
  ns: handle.i18n,
  keys: 'delete',
  find: async (id, { engine }) => (await getUserView(engine, id))?.username ?? null,
  gone: 'notFound',
  run: ({ id, admin, context }) => deleteUser(context.engine, admin.id, id),
  back: listBack('users'),
  errorText: (t, key) => t(key),
})
export { loader, action }
export { ConfirmRoute as default, ErrorBoundary } from '~/components/admin/confirm-route.tsx'
