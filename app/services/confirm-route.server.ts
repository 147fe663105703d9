import {
  data,
  type ActionFunctionArgs,
  type AppLoadContext,
  type LoaderFunctionArgs,
} from '@remix-run/node'
import type { TFunction, TOptions } from 'i18next'
import { auctionNamed } from '~/models/admin-dashboard.server.ts'
import { adminIdParam, adminErrorText } from '~/services/admin.server.ts'
import { requireAdmin } from '~/services/guards.server.ts'
import { getFixedT } from '~/i18n/i18next.server.ts'
import type { CurrentUser } from '~/types/current-user.ts'
import { createToastHeaders, redirectWithToast } from '~/services/toast.server.ts'
import type { ConfirmTexts } from '~/components/admin/confirm-route.tsx'
import { DASHBOARD_NS, dashboardList } from '~/utils/admin-dashboard.ts'
import { DomainError } from '~/utils/domain-error.ts'
import { readForm } from '~/utils/form.server.ts'

// The server half of an admin confirmation route (/admin/auctions/ID/end, /admin/users/ID/delete,
// /admin/orders/ID/refund, …): the loader names the thing the dialog is about, the action runs
// one model call and goes back to the list with a toast, or answers the refusal for the dialog
// to show. The page half is <ConfirmRoute> (app/components/admin/confirm-route.tsx), which shows
// the texts the loader wrote. `confirmRoute` writes them from keys under one prefix; a dialog
// with texts or fields of its own (a refund) uses `customConfirmRoute`.

export type ConfirmInput = {
  /** The id from the route's address, checked (a 400 for one no page of ours writes). */
  id: string
  admin: CurrentUser
  form: FormData
  context: AppLoadContext
}

/** The one model call; a DomainError is a refusal the dialog shows. */
type ConfirmRun = (input: ConfirmInput) => Promise<unknown>

export function customConfirmRoute<Thing>(options: {
  /** The namespaces of the route's texts. */
  ns: readonly [string, ...string[]]
  /** What the dialog names (null or a part of it missing when it is gone). */
  find: (id: string, context: AppLoadContext) => Promise<Thing>
  /**
   * The dialog's texts about what it names (`confirm`, its button, null when there is nothing
   * to confirm); without them the route's component writes its own (a refund's amount).
   */
  texts?: (t: TFunction, thing: Thing) => ConfirmTexts
  run: ConfirmRun
  /**
   * Where a success goes: the list the dialog was opened over, its query (from the dialog's
   * `search`) kept; the same function closes the dialog (<ConfirmRoute back>).
   */
  back: (search: string) => string
  /** The success toast, from what the dialog named before the call. */
  done: (t: TFunction, thing: Thing) => string
  /** The title key of the toast a refusal also shows; without it the dialog alone says why. */
  failed?: string
  /** A refusal's text from its key; the "admin" namespace's by default. */
  errorText?: (t: TFunction, key: string) => string
  /** The element (id) on the list that gets focus when the dialog's opener is gone. */
  returnFocusTo?: string
}) {
  const errorText = options.errorText ?? adminErrorText

  async function loader({ request, params, context }: LoaderFunctionArgs) {
    await requireAdmin(request)
    const id = params.id ?? ''
    const thing = await options.find(id, context)
    const closeTo = options.back(new URL(request.url).search)
    const returnFocusTo = options.returnFocusTo ?? null
    if (!options.texts) return { id, thing, closeTo, returnFocusTo, texts: null }
    const t = await getFixedT(request, [...options.ns, 'common'])
    return { id, thing, closeTo, returnFocusTo, texts: options.texts(t, thing) }
  }

  async function action({ request, params, context }: ActionFunctionArgs) {
    const admin = await requireAdmin(request)
    const t = await getFixedT(request, [...options.ns, 'common'])
    const id = adminIdParam(params.id, t)
    const form = await readForm(request)
    const thing = await options.find(id, context)
    try {
      await options.run({ id, admin, form, context })
    } catch (error) {
      if (!(error instanceof DomainError)) throw error
      const title = options.failed ? t(options.failed) : undefined
      return refuseConfirmation(errorText(t, error.key), error.status, title)
    }
    return redirectWithToast(options.back(new URL(request.url).search), {
      type: 'success',
      description: options.done(t, thing),
    })
  }

  return { loader, action }
}

/** What a confirmation names: its name, or the values of its texts ({ name } and any other). */
export type ConfirmNamed = string | ({ name: string } & TOptions) | null

/**
 * A confirmation whose texts are the keys under `keys`: `.title` and `.done` (with `{{name}}`
 * and the other values `find` gave), `.text` (its description), `.confirm` (its button) and
 * `.failed` (the title of a refusal's toast). When the thing is gone (`find` gave null) the
 * description is `gone`, and the title and toast are `.titleUnknown` and `.doneUnknown` where
 * the namespace has them, else `.title` and `.done` with an empty name. A value `context` picks
 * a variant of the texts (i18next's context: `delete.text_upcoming` for `context: 'upcoming'`).
 */
export function confirmRoute(options: {
  ns: readonly [string, ...string[]]
  /** The prefix of the dialog's text keys. */
  keys: string
  find: (id: string, context: AppLoadContext) => Promise<ConfirmNamed>
  /** The key of the description when the thing is gone. */
  gone: string
  run: ConfirmRun
  back: (search: string) => string
  errorText?: (t: TFunction, key: string) => string
  returnFocusTo?: string
}) {
  const { keys, gone } = options
  const values = (named: ConfirmNamed) =>
    named === null ? { name: '' } : typeof named === 'string' ? { name: named } : named
  const text = (t: TFunction, named: ConfirmNamed, key: string) =>
    t(
      named === null ? [`${keys}.${key}Unknown`, `${keys}.${key}`] : `${keys}.${key}`,
      values(named),
    )
  return customConfirmRoute({
    ...options,
    texts: (t, named) => ({
      title: text(t, named, 'title'),
      description: named === null ? t(gone) : t(`${keys}.text`, values(named)),
      confirm: t(`${keys}.confirm`),
    }),
    done: (t, named) => text(t, named, 'done'),
    failed: `${keys}.failed`,
  })
}

/**
 * A confirmation about an auction of the dashboard (/admin/auctions/ID/end, …/delete): its texts
 * under `keys` in admin-dashboard, the dashboard's tables to go back to.
 */
export function auctionConfirmRoute(keys: string, run: ConfirmRun) {
  return confirmRoute({
    ns: DASHBOARD_NS,
    keys,
    find: (id, { engine }) => auctionNamed(engine, id),
    gone: 'form.notFound',
    run,
    back: dashboardList,
    returnFocusTo: 'auctions-heading',
  })
}

/**
 * A refused confirmation: its reason for the dialog to show, answered with `status`, and a toast
 * titled `title` saying the same (none without a title).
 */
export async function refuseConfirmation(message: string, status: number, title?: string) {
  const headers = title
    ? await createToastHeaders({ type: 'error', title, description: message })
    : undefined
  return data({ error: message }, { status, headers })
}
