// The admin dashboard (/admin) and the dialogs that are its child routes (/admin/auctions/new,
// /admin/auctions/ID/edit, /admin/bots/ID/delete, …) share its texts and its query: the pages of
// the auctions table and of the bot list stay what they were while a dialog is open and after it
// closes.

export const DASHBOARD_NS = [
  'admin-dashboard',
  'admin',
  'admin-orders',
  'admin-payments',
  'alerts',
] as const
export const AUCTIONS_PER_PAGE = 10

/**
 * The dashboard's in-place forms, each posting to a route of its own. That route shows the form
 * itself (after a refusal without JavaScript), and meanwhile the dashboard leaves it out.
 */
export type DashboardForm = 'botSettings' | 'createBot'

/** The dashboard's own query parameters; anything else in a URL is not carried along. */
export const DASHBOARD_PARAMS = ['page', 'botsPage', 'botsAuction'] as const
type Kept = (typeof DASHBOARD_PARAMS)[number]

/** The dashboard's query taken from `search` (a URL's query), `change` setting or (null) removing. */
export function dashboardQuery(search: string, change: Partial<Record<Kept, string | null>> = {}) {
  const from = new URLSearchParams(search)
  const params = new URLSearchParams()
  for (const name of DASHBOARD_PARAMS) {
    const value = name in change ? change[name] : from.get(name)
    if (value) params.set(name, value)
  }
  return params
}

/**
 * `/admin` + `path` with the dashboard's query taken from `search` (a URL's query), `change`
 * setting (or, with null, removing) some of it.
 */
export function dashboardHref(
  path: string,
  search: string,
  change: Partial<Record<Kept, string | null>> = {},
) {
  const query = dashboardQuery(search, change).toString()
  return `/admin${path}${query ? `?${query}` : ''}`
}

/** The dashboard itself, its tables' query kept from `search`: where its dialogs close to. */
export function dashboardList(search: string) {
  return dashboardHref('', search)
}

/** Where an admin action goes back to: the dashboard (+ `path`), its pages kept. */
export function dashboardUrl(request: Request, path = '') {
  return dashboardHref(path, new URL(request.url).search)
}
