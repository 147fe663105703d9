import { parseWithZod } from '@conform-to/zod'
import { type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { useActionData, useLoaderData, useLocation } from '@remix-run/react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { UrlDialog } from '~/components/admin/url-dialog.tsx'
import { UserEditForm, userEditFormSchema } from '~/components/admin/users-edit-form.tsx'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { BALANCE_REFUSALS, editUser, newIdempotencyKey } from '~/models/admin-users.server.ts'
import { getUserView } from '~/models/user-view.server.ts'
import { refuseTamperedForm } from '~/services/admin.server.ts'
import { requireAdmin } from '~/services/guards.server.ts'
import { getFixedT } from '~/i18n/i18next.server.ts'
import { refuseForm } from '~/services/refuse-form.server.ts'
import { redirectWithToast } from '~/services/toast.server.ts'
import { listHref, listUrl } from '~/utils/admin-lists.ts'
import { DomainError } from '~/utils/domain-error.ts'
import { readForm } from '~/utils/form.server.ts'

// /admin/users/ID/edit: a user's details, role and bid balance, in a dialog over the list
// (docs/rules.md#admin-users, docs/decisions/028-balance-adjustments.md).

const NS = ['admin-users', 'admin'] as const
export const handle = { i18n: [...NS] }

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireAdmin(request)
  const user = await getUserView(context.engine, params.id ?? '')
  const editable = user && {
    id: user.id,
    username: user.username,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    phone: user.phone,
    bidBalance: user.bidBalance,
    role: user.role,
  }
  // A new key for every rendered form: sending that form again is the same change.
  return { user: editable, idempotencyKey: newIdempotencyKey() }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request)
  const t = await getFixedT(request, [...NS, 'common'])
  const form = await readForm(request)
  const submission = parseWithZod(form, { schema: userEditFormSchema })
  const sent = form.get('idempotencyKey')
  const failed = (status: number, result: ReturnType<typeof submission.reply>) => {
    refuseTamperedForm(result.error, ['id', 'idempotencyKey'], t)
    // The form keeps its key: pressing "Save" again is the same change, never a second one.
    return refuseForm(result, {
      status,
      title: t('edit.failed'),
      text: (key) => t(key),
      extra: { idempotencyKey: typeof sent === 'string' ? sent : undefined },
    })
  }
  if (submission.status !== 'success') return failed(400, submission.reply())
  const {
    id,
    intent: _intent,
    idempotencyKey,
    bidBalanceDelta,
    bidBalanceReason,
    ...fields
  } = submission.value
  const adjustment =
    bidBalanceDelta === undefined
      ? {}
      : { bidBalanceAdjustment: { delta: bidBalanceDelta, reason: bidBalanceReason ?? '' } }
  try {
    const user = await editUser(
      context.engine,
      admin.id,
      id,
      { ...fields, ...adjustment },
      idempotencyKey,
    )
    return redirectWithToast(listUrl('users', request), {
      type: 'success',
      description: t('edit.saved', { username: user.username }),
    })
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    // A refused balance change is said at its field; other refusals above the form.
    return failed(
      error.status,
      BALANCE_REFUSALS.has(error.key)
        ? submission.reply({ fieldErrors: { bidBalanceDelta: [error.key] } })
        : submission.reply({ formErrors: [error.key] }),
    )
  }
}

export default function EditUserRoute() {
  const { user, idempotencyKey } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { search } = useLocation()
  const { t } = useTranslation(NS)
  const closeTo = listHref('users', search)
  return (
    <UrlDialog
      open
      wide
      closeTo={closeTo}
      title={t('edit.title', { username: user?.username ?? '' })}
    >
      {user ? (
        <UserEditForm
          key={user.id}
          user={user}
          idempotencyKey={actionData?.idempotencyKey ?? idempotencyKey}
          lastResult={actionData?.result}
          closeTo={closeTo}
        />
      ) : (
        <p className="text-slate-700">{t('notFound')}</p>
      )}
    </UrlDialog>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
