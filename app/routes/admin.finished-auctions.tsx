import {
  data,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { i18nRoute } from '~/utils/i18n-route.ts'
import { ArrowLeft } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { FinishedStats } from '~/components/admin/finished-stats.tsx'
import { FinishedTable } from '~/components/admin/finished-table.tsx'
import { ConfirmForm, UrlDialog } from '~/components/admin/url-dialog.tsx'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { Pager } from '~/components/pager.tsx'
import { DomainError } from '~/utils/domain-error.ts'
import { deleteFinishedAuction } from '~/models/admin-auctions.server.ts'
import { auctionStats, listFinished } from '~/models/admin-finished.server.ts'
import { getAuctionById } from '~/models/auction-live.server.ts'
import { requireAdmin } from '~/services/admin.server.ts'
import { getFixedT } from '~/services/i18n.server.ts'
import { createToastHeaders, redirectWithToast } from '~/services/toast.server.ts'
import { pageParam } from '~/utils/http.ts'
import { readForm } from '~/utils/form.server.ts'

// /admin/finished-auctions (docs/rules.md#admin-finished-auctions): the results, newest
// first, with a statistics dialog (?stats=ID) and a delete confirmation (?confirm=delete:ID),
// both opened by query parameters so the page works without JavaScript.

const NS = ['admin-finished', 'admin'] as const
const i18n = i18nRoute(NS)
export const handle = i18n.handle
export const clientLoader = i18n.clientLoader

/** Dialog parameters; dropped from the URL after a successful action. */
const DIALOG_PARAMS = ['stats', 'confirm'] as const

/** The list's URL (the page kept, dialogs closed). */
function listUrl(requestUrl: string) {
  const url = new URL(requestUrl)
  for (const param of DIALOG_PARAMS) url.searchParams.delete(param)
  return `${url.pathname}${url.search}`
}

/** A missing auction is the dialog's message, not an error page. */
function orNull<T>(promise: Promise<T>) {
  return promise.catch((error: unknown) => {
    if (error instanceof DomainError) return null
    throw error
  })
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request)
  const t = await getFixedT(request, NS)
  const params = new URL(request.url).searchParams
  const statsId = params.get('stats')
  const confirm = params.get('confirm') ?? ''
  const deleteId = confirm.startsWith('delete:') ? confirm.slice('delete:'.length) : null
  const [list, stats] = await Promise.all([
    listFinished(pageParam(params.get('page'))),
    statsId ? orNull(auctionStats(statsId)) : null,
  ])
  // The dialogs are opened from this page's rows; a link from elsewhere asks the engine.
  const titleOf = async (id: string) =>
    list.auctions.find((a) => a.id === id)?.title ??
    (await getAuctionById(context.engine, id))?.title ??
    null
  return {
    title: t('title'),
    page: list.page,
    total: list.total,
    totalPages: list.totalPages,
    auctions: list.auctions,
    stats: statsId ? { title: await titleOf(statsId), stats } : null,
    deleting: deleteId ? { id: deleteId, title: await titleOf(deleteId) } : null,
  }
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }]

export async function action({ request, context }: ActionFunctionArgs) {
  await requireAdmin(request)
  const t = await getFixedT(request, [...NS, 'common'])
  const form = await readForm(request)
  const intent = form.get('intent')

  if (intent === 'delete') {
    const id = String(form.get('id') ?? '').slice(0, 64)
    const title = id ? (await getAuctionById(context.engine, id))?.title : null
    try {
      await deleteFinishedAuction(context.engine, id)
    } catch (error) {
      if (!(error instanceof DomainError)) throw error
      const message = t(`admin:${error.key}`)
      const headers = await createToastHeaders({
        type: 'error',
        title: t('delete.failed'),
        description: message,
      })
      return data({ error: message }, { status: error.status, headers })
    }
    return redirectWithToast(listUrl(request.url), {
      type: 'success',
      description: title ? t('delete.done', { title }) : t('delete.doneUnknown'),
    })
  }

  throw data(t('admin:errors.invalid'), { status: 400 })
}

export default function AdminFinishedAuctionsRoute() {
  const loaded = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
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
        {loaded.total > 0 ? (
          <p className="text-sm text-slate-700">{t('summary', { count: loaded.total })}</p>
        ) : null}
      </div>

      {/* Before the table: without JavaScript a dialog is a section of the page, seen first. */}
      {loaded.stats ? (
        <UrlDialog
          open
          wide
          closeTo={closeTo}
          title={
            loaded.stats.title
              ? t('stats.title', { title: loaded.stats.title })
              : t('stats.titleUnknown')
          }
        >
          {loaded.stats.stats ? (
            <FinishedStats stats={loaded.stats.stats} />
          ) : (
            <p role="alert" className="text-red-700">
              {t('stats.failed')}
            </p>
          )}
        </UrlDialog>
      ) : null}

      {loaded.deleting ? (
        <UrlDialog
          open
          closeTo={closeTo}
          title={
            loaded.deleting.title
              ? t('delete.title', { title: loaded.deleting.title })
              : t('delete.titleUnknown')
          }
          description={loaded.deleting.title ? t('delete.text') : t('delete.notFound')}
        >
          {actionData?.error ? (
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
      {auctions.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 p-6 text-center text-slate-600">
          {t('empty')}
        </p>
      ) : (
        <FinishedTable
          auctions={auctions}
          caption={t('table.caption', { page, pages: totalPages })}
          href={(param, value) => href({ [param]: value })}
        />
      )}
      <Pager page={page} totalPages={totalPages} href={(n) => href({ page: String(n) }, false)} />
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
