import { redirect } from '@remix-run/node'
import { DASHBOARD_PARAMS } from '~/utils/admin-dashboard.ts'
import { ADMIN_LISTS } from '~/utils/admin-lists.ts'

// Admin dialogs used to be opened by a query parameter of their list (`/admin/users?confirm=
// delete:ID`, `/admin/orders?refund=ID`, `/admin?edit=ID`); now each is a child route of the list
// (`/admin/users/ID/delete`). Links and bookmarks made before still open them: the list's loader
// sends such an address on to the dialog's own.

/** A list's older dialog parameters: each parameter's value to the dialog's path, or null. */
export type OldDialogs = Record<string, (value: string) => string | null>

/**
 * `under/ID/action` for an id of at most 64 characters (no id of ours is longer), else null.
 */
export const idPath =
  (action: string, under = '') =>
  (id: string): string | null =>
    id.length >= 1 && id.length <= 64 ? `${under}/${encodeURIComponent(id)}/${action}` : null

/** `?confirm=NAME:ID`: the path of each known NAME (`{ delete: idPath('delete') }`), else null. */
export const confirmPath =
  (names: Record<string, (id: string) => string | null>) =>
  (value: string): string | null => {
    const [, name = '', id = ''] = /^([^:]*):(.*)$/.exec(value) ?? []
    return Object.hasOwn(names, name) ? names[name]!(id) : null
  }

/** The dialog path (relative to the list) that an older address of the list meant, or null. */
export function oldDialogPath(url: URL, dialogs: OldDialogs): string | null {
  for (const [param, path] of Object.entries(dialogs)) {
    const value = url.searchParams.get(param)
    const found = value === null ? null : path(value)
    if (found) return found
  }
  return null
}

/** A list, its own query parameters, and its older dialog parameters. */
export type OldList = { list: string; keep: readonly string[]; dialogs: OldDialogs }

const deleteConfirm = confirmPath({ delete: idPath('delete') })

/** Every admin list whose dialogs had query parameters, and where each now lives. */
export const OLD_DIALOGS = {
  dashboard: {
    list: '/admin',
    keep: DASHBOARD_PARAMS,
    dialogs: {
      create: (value) => (value === '1' ? '/auctions/new' : null),
      edit: idPath('edit', '/auctions'),
      confirm: confirmPath({
        end: idPath('end', '/auctions'),
        delete: idPath('delete', '/auctions'),
        deleteBot: idPath('delete', '/bots'),
      }),
    },
  },
  users: {
    ...ADMIN_LISTS.users,
    dialogs: { edit: idPath('edit'), activity: idPath('activity'), confirm: deleteConfirm },
  },
  orders: { ...ADMIN_LISTS.orders, dialogs: { refund: idPath('refund') } },
  finished: {
    ...ADMIN_LISTS.finished,
    dialogs: { stats: idPath('stats'), confirm: deleteConfirm },
  },
} satisfies Record<string, OldList>

/** Where an older address of `list` goes: its dialog's route with the list's query, or null. */
export function oldDialogUrl(url: URL, { list, keep, dialogs }: OldList): string | null {
  if (url.pathname.replace(/\/$/, '') !== list) return null
  const path = oldDialogPath(url, dialogs)
  if (!path) return null
  const query = new URLSearchParams()
  for (const name of keep) {
    const value = url.searchParams.get(name)
    if (value) query.set(name, value)
  }
  const search = query.toString()
  return `${list}${path}${search ? `?${search}` : ''}`
}

/**
 * In a list's loader: an older dialog address of that list is redirected to the dialog's route.
 * Only the list's own address: its child routes' addresses run through the same loader.
 */
export function redirectOldDialog(request: Request, list: OldList) {
  const to = oldDialogUrl(new URL(request.url), list)
  if (to) throw redirect(to)
}
