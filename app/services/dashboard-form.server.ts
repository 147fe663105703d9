import { parseWithZod } from '@conform-to/zod'
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import type { TFunction } from 'i18next'
import type { z } from 'zod'
import { getAuctionForEdit } from '~/models/admin-dashboard.server.ts'
import { adminIdParam, saveAdminForm } from '~/services/admin.server.ts'
import { requireAdmin, requireAdminT } from '~/services/guards.server.ts'
import { redirectWithToast } from '~/services/toast.server.ts'
import { DASHBOARD_NS, dashboardUrl } from '~/utils/admin-dashboard.ts'
import { readForm } from '~/utils/form.server.ts'

// The server half of the dashboard's form routes (/admin/bots/new, /admin/bots/settings,
// /admin/auctions/ID/assign, …): with JavaScript their forms post through a fetcher and stay in
// place; without, a refusal shows the form in the route's own dialog over the dashboard.

/** The loader of an auction's edit dialog and of its bots' routes: the auction as it shows it. */
export async function auctionEditLoader({ request, params, context }: LoaderFunctionArgs) {
  await requireAdmin(request)
  return getAuctionForEdit(context.engine, params.id ?? '')
}

/** What a saved dashboard form says (the success toast) and where it goes (`to`, under /admin). */
export type DashboardSaved = { toast: string; to?: string }

/**
 * The action of a dashboard form: checks the admin (and the route's id, with `withId`, before
 * the form is read), parses `schema` and runs `save`, then goes back to the dashboard (its
 * tables' pages kept) with the toast `save` wrote; a refused form, or a DomainError `save`
 * throws, is answered by `saveAdminForm` with a toast titled `failed` (a key).
 */
export function dashboardFormAction<Schema extends z.ZodTypeAny>(options: {
  schema: Schema
  failed: string
  withId?: boolean
  save: (
    value: z.output<Schema>,
    input: { t: TFunction; id: string; args: ActionFunctionArgs },
  ) => Promise<DashboardSaved>
}) {
  return async function action(args: ActionFunctionArgs) {
    const { request, params } = args
    const t = await requireAdminT(request, [...DASHBOARD_NS, 'common'])
    const id = options.withId ? adminIdParam(params.id, t) : ''
    const submission = parseWithZod(await readForm(request), { schema: options.schema })
    return saveAdminForm(t, submission, t(options.failed), async (value) => {
      const saved = await options.save(value, { t, id, args })
      return redirectWithToast(dashboardUrl(request, saved.to), {
        type: 'success',
        description: saved.toast,
      })
    })
  }
}
