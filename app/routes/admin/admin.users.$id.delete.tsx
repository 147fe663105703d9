import { ConfirmRoute } from '~/components/admin/confirm-route.tsx'
import { deleteUser } from '~/models/admin-users.server.ts'
import { getUserView } from '~/models/user-view.server.ts'
import { confirmRoute } from '~/services/confirm-route.server.ts'
import { listBack } from '~/utils/admin-lists.ts'

// /admin/users/ID/delete: deletes an account after a confirmation in a dialog over the list
// (docs/decisions/012-admin-deletes.md); an admin cannot delete themself.

const NS = ['admin-users', 'admin'] as const
export const handle = { i18n: [...NS] }

const route = confirmRoute({
  ns: NS,
  find: async (id, { engine }) => (await getUserView(engine, id))?.username ?? null,
  texts: (t, username) => ({
    title: t('delete.title', { username: username ?? '' }),
    description: username ? t('delete.text') : t('notFound'),
    confirm: t('delete.confirm'),
  }),
  run: ({ id, admin, context }) => deleteUser(context.engine, admin.id, id),
  back: listBack('users'),
  done: (t, username) => t('delete.done', { username: username ?? '' }),
  failed: 'delete.failed',
  errorText: (t, key) => t(key),
})
export const loader = route.loader
export const action = route.action

export default function DeleteUserRoute() {
  return <ConfirmRoute />
}

export { GeneralErrorBoundary as ErrorBoundary } from '~/components/error-boundary.tsx'
