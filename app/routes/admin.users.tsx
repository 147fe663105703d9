import { parseWithZod } from '@conform-to/zod'
import {
  data,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { i18nRoute } from '~/utils/i18n-route.ts'
import { ArrowLeft, Search, Shield, UserCheck, UserPlus, Users } from 'lucide-react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { UserActivity } from '~/components/admin/users-activity.tsx'
import { UserEditForm, userEditFormSchema } from '~/components/admin/users-edit-form.tsx'
import { UsersTable } from '~/components/admin/users-table.tsx'
import { ConfirmForm, UrlDialog } from '~/components/admin/url-dialog.tsx'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { Pager } from '~/components/pager.tsx'
import { DomainError } from '~/utils/domain-error.ts'
import {
  deleteUser,
  editUser,
  listUsers,
  newIdempotencyKey,
  todayRegistrations,
  userActivity,
  BALANCE_REFUSALS,
  USERS_PER_PAGE,
} from '~/models/admin-users.server.ts'
import { getUserView, type UserView } from '~/models/user-view.server.ts'
import { refuseTamperedForm, requireAdmin } from '~/services/admin.server.ts'
import { getFixedT } from '~/services/i18n.server.ts'
import { createToastHeaders, redirectWithToast } from '~/services/toast.server.ts'
import { pageParam } from '~/utils/http.ts'
import { readForm } from '~/utils/form.server.ts'

// /admin/users (docs/rules.md#admin-users): the list, search, and the edit, activity and
// delete dialogs, each opened by a query parameter so the page works without JavaScript.

const NS = ['admin-users', 'admin'] as const
const i18n = i18nRoute(NS)
export const handle = i18n.handle
export const clientLoader = i18n.clientLoader

const SEARCH_MAX = 100
/** Dialog parameters; dropped from the URL after a successful action. */
const DIALOG_PARAMS = ['edit', 'activity', 'confirm'] as const

/** The list's URL (page and search kept, dialogs closed). */
function listUrl(requestUrl: string) {
  const url = new URL(requestUrl)
  for (const param of DIALOG_PARAMS) url.searchParams.delete(param)
  return `${url.pathname}${url.search}`
}

function editable(user: UserView | null) {
  if (!user) return null
  const { id, username, firstName, lastName, email, phone, bidBalance, role } = user
  return { id, username, firstName, lastName, email, phone, bidBalance, role }
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request)
  const t = await getFixedT(request, NS)
  const params = new URL(request.url).searchParams
  const search = (params.get('search') ?? '').trim().slice(0, SEARCH_MAX)
  const editId = params.get('edit')
  const activityId = params.get('activity')
  const confirm = params.get('confirm') ?? ''
  const deleteId = confirm.startsWith('delete:') ? confirm.slice('delete:'.length) : null
  const [list, today, edit, activityUser, activity, deleting] = await Promise.all([
    listUsers(context.engine, pageParam(params.get('page')), USERS_PER_PAGE, search),
    todayRegistrations(),
    editId ? getUserView(context.engine, editId) : null,
    activityId ? getUserView(context.engine, activityId) : null,
    activityId
      ? userActivity(activityId).catch((error: unknown) => {
          if (error instanceof DomainError) return null
          throw error
        })
      : null,
    deleteId ? getUserView(context.engine, deleteId) : null,
  ])
  return {
    title: t('title'),
    adminId: admin.id,
    search,
    page: list.page,
    totalPages: list.totalPages,
    users: list.users,
    stats: {
      total: list.total,
      // docs/rules.md#admin-users: "active" and "admins" count the current page only.
      active: list.users.filter((user) => user.totalBids > 0).length,
      admins: list.users.filter((user) => user.role === 'admin').length,
      today,
    },
    // A new key for every rendered edit form: sending that form again is the same change.
    edit: editId ? { id: editId, user: editable(edit), idempotencyKey: newIdempotencyKey() } : null,
    activity: activityId ? { user: activityUser?.username ?? null, activity } : null,
    deleting: deleteId ? { id: deleteId, username: deleting?.username ?? null } : null,
  }
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }]

export async function action({ request, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request)
  const t = await getFixedT(request, [...NS, 'common'])
  const form = await readForm(request)
  const intent = form.get('intent')
  const back = listUrl(request.url)

  if (intent === 'edit') {
    const submission = parseWithZod(form, { schema: userEditFormSchema })
    const sent = form.get('idempotencyKey')
    const sentKey = typeof sent === 'string' ? sent : undefined
    const failed = async (status: number, result: ReturnType<typeof submission.reply>) => {
      refuseTamperedForm(result.error, ['id', 'idempotencyKey'], t)
      const first = Object.values(result.error ?? {}).flat()[0]
      const headers = await createToastHeaders({
        type: 'error',
        title: t('edit.failed'),
        description: first ? t(first) : t('edit.failed'),
      })
      // The form keeps its key: pressing "Save" again is the same change, never a second one.
      return data(
        {
          intent: 'edit' as const,
          result,
          error: null,
          idempotencyKey: sentKey,
        },
        { status, headers },
      )
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
    try {
      const user = await editUser(
        context.engine,
        admin.id,
        id,
        {
          ...fields,
          ...(bidBalanceDelta === undefined
            ? {}
            : { bidBalanceAdjustment: { delta: bidBalanceDelta, reason: bidBalanceReason ?? '' } }),
        },
        idempotencyKey,
      )
      return redirectWithToast(back, {
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

  if (intent === 'delete') {
    const id = String(form.get('id') ?? '')
    const user = id ? await getUserView(context.engine, id) : null
    try {
      await deleteUser(context.engine, admin.id, id)
    } catch (error) {
      if (!(error instanceof DomainError)) throw error
      const message = t(error.key)
      const headers = await createToastHeaders({
        type: 'error',
        title: t('delete.failed'),
        description: message,
      })
      return data(
        { intent: 'delete' as const, result: null, error: message },
        { status: error.status, headers },
      )
    }
    return redirectWithToast(back, {
      type: 'success',
      description: t('delete.done', { username: user?.username ?? '' }),
    })
  }

  throw data(t('admin:errors.invalid'), { status: 400 })
}

export default function AdminUsersRoute() {
  const loaded = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { t } = useTranslation(NS)
  const { search, page, totalPages, users, stats } = loaded

  /** This page's URL with `extra` set; page and search are kept. */
  const href = (extra: Record<string, string> = {}, keepPage = true) => {
    const params = new URLSearchParams()
    if (search) params.set('search', search)
    if (keepPage && page > 1) params.set('page', String(page))
    for (const [key, value] of Object.entries(extra)) params.set(key, value)
    const query = params.toString()
    return `/admin/users${query ? `?${query}` : ''}`
  }
  const closeTo = href()

  return (
    <div className="space-y-6">
      <div className="space-y-2">
        <Link
          to="/admin"
          className="inline-flex items-center gap-1 text-sm font-semibold text-amber-800 underline-offset-2 hover:underline"
        >
          <ArrowLeft aria-hidden className="h-4 w-4" />
          {t('back')}
        </Link>
        <h1 className="text-3xl font-bold">{t('title')}</h1>
        <p className="text-slate-700">{t('intro')}</p>
      </div>

      <section aria-labelledby="users-stats">
        <h2 id="users-stats" className="sr-only">
          {t('stats.heading')}
        </h2>
        <dl className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          <Stat icon={<Users className="h-5 w-5" />} label={t('stats.total')} value={stats.total} />
          <Stat
            icon={<UserCheck className="h-5 w-5" />}
            label={t('stats.active')}
            value={stats.active}
            hint={t('stats.activeHint')}
          />
          <Stat
            icon={<Shield className="h-5 w-5" />}
            label={t('stats.admins')}
            value={stats.admins}
          />
          <Stat
            icon={<UserPlus className="h-5 w-5" />}
            label={t('stats.today')}
            value={stats.today}
          />
        </dl>
      </section>

      <section aria-labelledby="users-list" className="space-y-4">
        <h2 id="users-list" className="text-xl font-semibold">
          {t('table.heading')}
        </h2>
        <Form method="get" action="/admin/users" className="flex flex-wrap items-end gap-2">
          <div className="min-w-0 flex-1 basis-64 space-y-1">
            <label htmlFor="users-search" className="block text-sm font-medium text-slate-800">
              {t('search.label')}
            </label>
            <input
              id="users-search"
              type="search"
              name="search"
              defaultValue={search}
              key={search}
              maxLength={SEARCH_MAX}
              placeholder={t('search.placeholder')}
              className="w-full rounded-md border border-slate-300 bg-white px-3 py-2 shadow-sm focus:border-amber-500 focus:outline-none focus:ring-2 focus:ring-amber-200"
            />
          </div>
          <button
            type="submit"
            className="inline-flex items-center gap-2 rounded-md bg-amber-700 px-4 py-2 font-semibold text-white hover:bg-amber-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-amber-400 focus-visible:ring-offset-2"
          >
            <Search aria-hidden className="h-4 w-4" />
            {t('search.submit')}
          </button>
          {search ? (
            <Link
              to="/admin/users"
              className="rounded-md border border-slate-300 bg-white px-4 py-2 font-semibold hover:bg-slate-50"
            >
              {t('search.clear')}
            </Link>
          ) : null}
        </Form>
        {search ? (
          <p role="status" className="text-sm text-slate-700">
            {t('search.results', { count: stats.total, search })}
          </p>
        ) : null}

        {users.length === 0 ? (
          <p className="rounded-xl border border-dashed border-slate-300 p-6 text-center text-slate-600">
            {search ? t('table.emptySearch', { search }) : t('table.empty')}
          </p>
        ) : (
          <UsersTable
            users={users}
            adminId={loaded.adminId}
            caption={t('table.caption', { page, pages: totalPages })}
            href={(param, value) => href({ [param]: value })}
          />
        )}
        <Pager page={page} totalPages={totalPages} href={(n) => href({ page: String(n) }, false)} />
      </section>

      {loaded.edit ? (
        <UrlDialog
          open
          wide
          closeTo={closeTo}
          title={t('edit.title', { username: loaded.edit.user?.username ?? '' })}
        >
          {loaded.edit.user ? (
            <UserEditForm
              key={loaded.edit.user.id}
              user={loaded.edit.user}
              idempotencyKey={
                (actionData?.intent === 'edit' ? actionData.idempotencyKey : undefined) ??
                loaded.edit.idempotencyKey
              }
              lastResult={actionData?.intent === 'edit' ? actionData.result : undefined}
              closeTo={closeTo}
            />
          ) : (
            <p className="text-slate-700">{t('notFound')}</p>
          )}
        </UrlDialog>
      ) : null}

      {loaded.activity ? (
        <UrlDialog
          open
          wide
          closeTo={closeTo}
          title={t('activity.title', { username: loaded.activity.user ?? '' })}
        >
          {loaded.activity.activity ? (
            <UserActivity activity={loaded.activity.activity} />
          ) : (
            <p role="alert" className="text-red-700">
              {t('activity.failed')}
            </p>
          )}
        </UrlDialog>
      ) : null}

      {loaded.deleting ? (
        <UrlDialog
          open
          closeTo={closeTo}
          title={t('delete.title', { username: loaded.deleting.username ?? '' })}
          description={loaded.deleting.username ? t('delete.text') : t('notFound')}
        >
          {actionData?.intent === 'delete' && actionData.error ? (
            <p
              role="alert"
              className="mb-3 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800"
            >
              {actionData.error}
            </p>
          ) : null}
          <ConfirmForm
            intent="delete"
            id={loaded.deleting.id}
            confirmLabel={t('delete.confirm')}
            cancelTo={closeTo}
          />
        </UrlDialog>
      ) : null}
    </div>
  )
}

function Stat({
  icon,
  label,
  value,
  hint,
}: {
  icon: ReactNode
  label: string
  value: number
  hint?: string
}) {
  return (
    // One card a row on a phone: long words ("Зарегистрировано") do not fit half its width.
    <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <dt className="flex items-start gap-2 text-sm text-slate-700">
        <span aria-hidden className="shrink-0 text-amber-700">
          {icon}
        </span>
        <span className="min-w-0 break-words">{label}</span>
      </dt>
      <dd className="mt-1 text-2xl font-bold tabular-nums">{value}</dd>
      {hint ? <dd className="text-xs text-slate-600">{hint}</dd> : null}
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
