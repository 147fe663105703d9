import { AdminPageHeader } from '~/components/admin/page-header.tsx'
import type { LoaderFunctionArgs } from '@remix-run/node'
import { Form, Link, Outlet, useLoaderData, useLocation } from '@remix-run/react'
import { i18nRoute } from '~/utils/i18n-route.ts'
import { Search, Shield, UserCheck, UserPlus, Users } from 'lucide-react'
import type { ReactNode } from 'react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { UsersTable } from '~/components/admin/users-table.tsx'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { Pager } from '~/components/pager.tsx'
import { listUsers, todayRegistrations, USERS_PER_PAGE } from '~/models/admin-users.server.ts'
import { refuseOldPost } from '~/services/admin.server.ts'
import { requireAdmin } from '~/services/guards.server.ts'
import { getFixedT } from '~/i18n/i18next.server.ts'
import { pageParam } from '~/utils/http.ts'
import { listHref } from '~/utils/admin-lists.ts'
import { OLD_DIALOGS, redirectOldDialog } from '~/utils/old-dialogs.server.ts'
import { Button, buttonClass } from '~/components/ui/button.tsx'
import { controlClass } from '~/components/ui/field.tsx'
import { titleMeta } from '~/utils/meta.ts'
import { EmptyNote } from '~/components/ui/panel.tsx'

// /admin/users (docs/rules.md#admin-users): the list and its search. A user's edit, activity and
// delete dialogs are child routes (admin.users.$id.*.tsx) shown in the <Outlet /> over the list:
// a Radix dialog with JavaScript, a section of the page without.

const NS = ['admin-users', 'admin'] as const
const i18n = i18nRoute(NS)
export const handle = i18n.handle
export const clientLoader = i18n.clientLoader

const SEARCH_MAX = 100

export async function loader({ request, context }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request)
  redirectOldDialog(request, OLD_DIALOGS.users)
  const t = await getFixedT(request, NS)
  const params = new URL(request.url).searchParams
  const search = (params.get('search') ?? '').trim().slice(0, SEARCH_MAX)
  const [list, today] = await Promise.all([
    listUsers(context.engine, pageParam(params.get('page')), USERS_PER_PAGE, search),
    todayRegistrations(),
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
  }
}

export const meta = titleMeta

/** Before the dialogs had routes of their own, their forms posted here. */
export const action = refuseOldPost(NS)

export default function AdminUsersRoute() {
  const loaded = useLoaderData<typeof loader>()
  const location = useLocation()
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

  return (
    <div className="space-y-6">
      <AdminPageHeader back={t('back')} title={t('title')} lead={t('intro')} />

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
              className={controlClass}
            />
          </div>
          <Button>
            <Search aria-hidden className="h-4 w-4" />
            {t('search.submit')}
          </Button>
          {search ? (
            <Link to="/admin/users" className={buttonClass({ variant: 'outline' })}>
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
          <EmptyNote look="page">
            {search ? t('table.emptySearch', { search }) : t('table.empty')}
          </EmptyNote>
        ) : (
          <UsersTable
            users={users}
            adminId={loaded.adminId}
            caption={t('table.caption', { page, pages: totalPages })}
            dialogHref={(id, dialog) =>
              listHref('users', location.search, `/${encodeURIComponent(id)}/${dialog}`)
            }
          />
        )}
        <Pager page={page} totalPages={totalPages} href={(n) => href({ page: String(n) }, false)} />
      </section>

      <Outlet />
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
