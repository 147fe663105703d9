import { AdminPageHeader } from '~/components/admin/page-header.tsx'
import type { LoaderFunctionArgs } from '@remix-run/node'
import { Outlet, useLoaderData, useLocation } from '@remix-run/react'
import { i18nRoute } from '~/utils/i18n-route.ts'
import { useTranslation } from '~/i18n/use-translation.ts'
import { FinishedTable } from '~/components/admin/finished-table.tsx'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { Pager } from '~/components/pager.tsx'
import { listFinished } from '~/models/admin-finished.server.ts'
import { refuseOldPost } from '~/services/admin.server.ts'
import { requireAdmin } from '~/services/guards.server.ts'
import { getFixedT } from '~/i18n/i18next.server.ts'
import { pageParam } from '~/utils/http.ts'
import { listHref } from '~/utils/admin-lists.ts'
import { OLD_DIALOGS, redirectOldDialog } from '~/utils/old-dialogs.server.ts'
import { titleMeta } from '~/utils/meta.ts'
import { EmptyNote } from '~/components/ui/panel.tsx'

// /admin/finished-auctions (docs/rules.md#admin-finished-auctions): the results, newest
// first. An auction's statistics and its delete confirmation are child routes
// (admin.finished-auctions.$id.*.tsx) shown in the <Outlet /> over the list.

const NS = ['admin-finished', 'admin'] as const
const i18n = i18nRoute(NS)
export const handle = i18n.handle
export const clientLoader = i18n.clientLoader

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request)
  redirectOldDialog(request, OLD_DIALOGS.finished)
  const t = await getFixedT(request, NS)
  const list = await listFinished(pageParam(new URL(request.url).searchParams.get('page')))
  return {
    title: t('title'),
    page: list.page,
    total: list.total,
    totalPages: list.totalPages,
    auctions: list.auctions,
  }
}

export const meta = titleMeta

/** Before the dialogs had routes of their own, their forms posted here. */
export const action = refuseOldPost(NS)

export default function AdminFinishedAuctionsRoute() {
  const loaded = useLoaderData<typeof loader>()
  const { search } = useLocation()
  const { t } = useTranslation(NS)
  const { page, totalPages, auctions } = loaded

  /** This page's URL with `extra` set; the page is kept. */
  const href = (extra: Record<string, string> = {}, keepPage = true) => {
    const params = new URLSearchParams()
    if (keepPage && page > 1) params.set('page', String(page))
    for (const [key, value] of Object.entries(extra)) params.set(key, value)
    const query = params.toString()
    return `/admin/finished-auctions${query ? `?${query}` : ''}`
  }

  return (
    <div className="space-y-6">
      <AdminPageHeader back={t('back')} title={t('title')} lead={t('intro')}>
        {loaded.total > 0 ? (
          <p className="text-sm text-slate-700">{t('summary', { count: loaded.total })}</p>
        ) : null}
      </AdminPageHeader>

      {/* Before the table: without JavaScript a dialog is a section of the page, seen first. */}
      <Outlet />
      {auctions.length === 0 ? (
        <EmptyNote look="page">{t('empty')}</EmptyNote>
      ) : (
        <FinishedTable
          auctions={auctions}
          caption={t('table.caption', { page, pages: totalPages })}
          dialogHref={(id, dialog) =>
            listHref('finished', search, `/${encodeURIComponent(id)}/${dialog}`)
          }
        />
      )}
      <Pager page={page} totalPages={totalPages} href={(n) => href({ page: String(n) }, false)} />
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
