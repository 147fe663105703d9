import type { Submission, SubmissionResult } from '@conform-to/react'
import { data } from '@remix-run/node'
import type { TFunction } from 'i18next'
import { DomainError } from '~/utils/domain-error.ts'
import { requireAdmin, requireApiAdmin } from '~/services/guards.server.ts'
import { getFixedT } from '~/i18n/i18next.server.ts'
import type { CurrentUser } from '~/types/current-user.ts'
import { refuseForm } from '~/services/refuse-form.server.ts'
import { answerRefusals } from '~/utils/api.server.ts'
import { adminIdSchema } from '~/validation/admin.ts'

// The admin pages' and /api/admin calls' shared steps. Every /admin loader and action and every
// /api/admin call first checks the admin (app/services/guards.server.ts: requireAdmin,
// requireAdminT, requireApiAdmin, or adminApi below).

/** The admin API's translator: the "admin" namespace, then "common". */
export async function adminTranslator(request: Request): Promise<TFunction> {
  return getFixedT(request, ['admin', 'common'])
}

/**
 * Runs an /api/admin handler for an admin only (requireApiAdmin); a DomainError becomes its
 * status with the message in the request's language.
 */
export async function adminApi(
  request: Request,
  run: (t: TFunction, admin: CurrentUser) => Promise<Response>,
): Promise<Response> {
  const t = await adminTranslator(request)
  const admin = await requireApiAdmin(request, t)
  return answerRefusals(t, () => run(t, admin))
}

/**
 * A refused admin form whose hidden fields (the ids the page put there) did not validate was not
 * sent by our page, and the page has no field to show that error at: its error view says so.
 */
export function refuseTamperedForm(
  errors: Record<string, string[] | null> | null | undefined,
  hidden: readonly string[],
  t: TFunction,
) {
  if (hidden.some((name) => errors?.[name]?.length)) {
    throw data(t('admin:errors.invalid'), { status: 400 })
  }
}

/** An id from an admin page's URL or hidden field; one that no page of ours writes is a 400. */
export function adminIdParam(value: string | undefined, t: TFunction) {
  const id = adminIdSchema.safeParse(value)
  if (!id.success) throw data(t('admin:errors.invalid'), { status: 400 })
  return id.data
}

/** An error key of an admin form: the shared validation keys, else one of the "admin" namespace. */
export const adminErrorText = (t: TFunction, key: string) =>
  t(key.startsWith('validation.') ? key : `admin:${key}`)

/**
 * A refused admin form: its errors for the form to show (field or form-level keys, answered with
 * `status`) and a toast saying what failed (`title`) and why (the first error).
 */
export function refuseAdminForm(
  t: TFunction,
  status: number,
  result: SubmissionResult<string[]>,
  title: string,
) {
  return refuseForm(result, { status, title, text: (key) => adminErrorText(t, key) })
}

/**
 * The action of an admin list whose forms moved to dialogs of their own: a post from a page that
 * old (opened before an update) is refused with 400; it is not guessed at.
 */
export function refuseOldPost(ns: readonly [string, ...string[]]) {
  return async function action({ request }: { request: Request }) {
    await requireAdmin(request)
    const t = await getFixedT(request, [...ns, 'common'])
    throw data(t('admin:errors.invalid'), { status: 400 })
  }
}

/**
 * The action of an admin form once its submission is parsed: a refused submission (400) or a
 * DomainError thrown by `save` (its status, the key above the form) is answered with
 * `refuseAdminForm` titled `failed`; else `save`'s own answer (a redirect with a toast).
 */
export async function saveAdminForm<Output>(
  t: TFunction,
  submission: Submission<unknown, string[], Output>,
  failed: string,
  save: (value: Output) => Promise<Response>,
) {
  if (submission.status !== 'success') {
    return refuseAdminForm(t, 400, submission.reply(), failed)
  }
  try {
    return await save(submission.value)
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    const result = submission.reply({ formErrors: [error.key] })
    return refuseAdminForm(t, error.status, result, failed)
  }
}
