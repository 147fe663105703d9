// The admin lists whose rows open dialogs as child routes (/admin/users/ID/edit,
// /admin/orders/ID/refund, /admin/payments/ID/refund, …): each list's address and its own query parameters, which a dialog
// keeps so that closing it, or its action's redirect, comes back to the same page of the list.

export const ADMIN_LISTS = {
  users: { list: '/admin/users', keep: ['search', 'page'] },
  orders: { list: '/admin/orders', keep: ['status', 'page'] },
  payments: { list: '/admin/payments', keep: ['status', 'page'] },
  finished: { list: '/admin/finished-auctions', keep: ['page'] },
} as const

export type AdminList = keyof typeof ADMIN_LISTS

/** The list's address + `path` (a dialog's, or none), with the list's own query from `search`. */
export function listHref(name: AdminList, search: string, path = '') {
  const { list, keep } = ADMIN_LISTS[name]
  const from = new URLSearchParams(search)
  const query = new URLSearchParams()
  for (const param of keep) {
    const value = from.get(param)
    if (value) query.set(param, value)
  }
  const rest = query.toString()
  return `${list}${path}${rest ? `?${rest}` : ''}`
}

/** Where a dialog's action goes back to: its list, the list's query kept. */
export function listUrl(name: AdminList, request: Request) {
  return listHref(name, new URL(request.url).search)
}

/** The list's address from a dialog's `search`: where the dialog closes to and goes back to. */
export function listBack(name: AdminList) {
  return (search: string) => listHref(name, search)
}
