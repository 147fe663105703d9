// The admin dashboard (/admin) and the dialogs that are its child routes (/admin/auctions/new,
// /admin/auctions/ID/edit, /admin/bots/ID/delete, …) share its texts and its query: the pages of
// the auctions table and of the bot list stay what they were while a dialog is open and after it
// closes.

export const DASHBOARD_NS = ['admin-dashboard', 'admin', 'admin-orders', 'admin-payments'] as const
export const AUCTIONS_PER_PAGE = 10

/**
 * The dashboard's in-place forms, each posting to a route of its own. That route shows the form
 * itself (after a refusal without JavaScript), and meanwhile the dashboard leaves it out.
 */
export type DashboardForm = 'botSettings' | 'createBot'

/** The dashboard's own query parameters; anything else in a URL is not carried along. */
const KEPT = ['page', 'botsPage', 'botsAuction'] as const
type Kept = (typeof KEPT)[number]

/** The dashboard's query taken from `search` (a URL's query), `change` setting or (null) removing. */
export function dashboardQuery(search: string, change: Partial<Record<Kept, string | null>> = {}) {
  const from = new URLSearchParams(search)
  const params = new URLSearchParams()
  for (const name of KEPT) {
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

/** Where an admin action goes back to: the dashboard, its pages kept. */
export function dashboardUrl(request: Request, path = '') {
  return dashboardHref(path, new URL(request.url).search)
}

/**
 * The dialog route that an older dashboard URL opened with a query parameter (`?create=1`,
 * `?edit=ID`, `?confirm=end:ID`, `?confirm=delete:ID`, `?confirm=deleteBot:ID`), so links and
 * bookmarks made before the dialogs had their own URLs still open them; null for any other URL.
 */
export function legacyDialogPath(url: URL): string | null {
  if (url.pathname.replace(/\/$/, '') !== '/admin') return null
  const params = url.searchParams
  if (params.get('create') === '1') return '/auctions/new'
  const edit = /^.{1,64}$/.exec(params.get('edit') ?? '')?.[0]
  if (edit) return `/auctions/${encodeURIComponent(edit)}/edit`
  const confirm = /^(end|delete|deleteBot):(.{1,64})$/.exec(params.get('confirm') ?? '')
  if (!confirm) return null
  const id = encodeURIComponent(confirm[2]!)
  return confirm[1] === 'deleteBot' ? `/bots/${id}/delete` : `/auctions/${id}/${confirm[1]}`
}
