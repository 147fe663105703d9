import {
  data,
  type ActionFunctionArgs,
  type AppLoadContext,
  type LoaderFunctionArgs,
} from '@remix-run/node'
import type { TFunction } from 'i18next'
import { adminIdParam, adminErrorText, requireAdmin } from '~/services/admin.server.ts'
import { getFixedT } from '~/services/i18n.server.ts'
import type { CurrentUser } from '~/services/session.server.ts'
import { createToastHeaders, redirectWithToast } from '~/services/toast.server.ts'
import type { ConfirmTexts } from '~/components/admin/confirm-route.tsx'
import { DomainError } from '~/utils/domain-error.ts'
import { readForm } from '~/utils/form.server.ts'

// The server half of an admin confirmation route (/admin/auctions/ID/end, /admin/users/ID/delete,
// /admin/orders/ID/refund, …): the loader names the thing the dialog is about, the action runs
// one model call and goes back to the list with a toast, or answers the refusal for the dialog
// to show. The page half is <ConfirmRoute> (app/components/admin/confirm-route.tsx), which shows
// the texts the loader wrote.

export type ConfirmInput = {
  /** The id from the route's address, checked (a 400 for one no page of ours writes). */
  id: string
  admin: CurrentUser
  form: FormData
  context: AppLoadContext
}

export function confirmRoute<Thing>(options: {
  /** The namespaces of the route's texts. */
  ns: readonly [string, ...string[]]
  /** What the dialog names (null or a part of it missing when it is gone). */
  find: (id: string, context: AppLoadContext) => Promise<Thing>
  /**
   * The dialog's texts about what it names (`confirm`, its button, null when there is nothing
   * to confirm); without them the route's component writes its own (a refund's amount).
   */
  texts?: (t: TFunction, thing: Thing) => ConfirmTexts
  /** The one model call; a DomainError is a refusal the dialog shows. */
  run: (input: ConfirmInput) => Promise<unknown>
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
}) {
  const errorText = options.errorText ?? adminErrorText

  async function loader({ request, params, context }: LoaderFunctionArgs) {
    await requireAdmin(request)
    const id = params.id ?? ''
    const thing = await options.find(id, context)
    const closeTo = options.back(new URL(request.url).search)
    if (!options.texts) return { id, thing, closeTo, texts: null }
    const t = await getFixedT(request, [...options.ns, 'common'])
    return { id, thing, closeTo, texts: options.texts(t, thing) }
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
