import type { SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod'
import {
  data,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import {
  Link,
  useActionData,
  useLoaderData,
  useLocation,
  type ClientLoaderFunctionArgs,
} from '@remix-run/react'
import i18next from 'i18next'
import { Plus } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import {
  AuctionForm,
  auctionFormSchemas,
  type EditableAuction,
} from '~/components/admin/dashboard-auction-form.tsx'
import { AuctionsTable, BidPackages } from '~/components/admin/dashboard-auctions-table.tsx'
import {
  AuctionBots,
  assignFormSchema,
  BotListCard,
  BotSettingsCard,
  botSettingsFormSchema,
  botCreateFormSchema,
} from '~/components/admin/dashboard-bots.tsx'
import { AdminNav, SystemStats } from '~/components/admin/dashboard-overview.tsx'
import { ConfirmForm, UrlDialog } from '~/components/admin/url-dialog.tsx'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { Pager } from '~/components/pager.tsx'
import {
  AdminError,
  createAuction,
  deleteAuction,
  endAuction,
  updateAuction,
} from '~/models/admin-auctions.server.ts'
import {
  assignBot,
  BOTS_PER_PAGE,
  createBot,
  deleteBot,
  getBotSettings,
  listAssignments,
  listBots,
  unassignBot,
  updateBotSettings,
} from '~/models/admin-bots.server.ts'
import { getAuctionById, getOpenAuctionsPage } from '~/models/auction-live.server.ts'
import { getOpenAuctionPageOf } from '~/models/auction.server.ts'
import { refuseTamperedForm, requireAdmin } from '~/services/admin.server.ts'
import { getFixedT } from '~/services/i18n.server.ts'
import { createToastHeaders, redirectWithToast } from '~/services/toast.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import { pageParam } from '~/utils/http.ts'
import { readForm } from '~/utils/form.server.ts'

// /admin (docs/rules.md#admin-dashboard): statistics, the open auctions with their create,
// edit (with bots), end and delete dialogs, bid packages, bot settings and the bot list. Every
// dialog is a query parameter and every change a plain form post, so it all works without JS.

const NS = ['admin-dashboard', 'admin', 'admin-orders'] as const
export const handle = { i18n: [...NS] }

export const AUCTIONS_PER_PAGE = 10
const BID_PACKAGES_SHOWN = 20
/** Dialog parameters (and Remix's `index`), dropped from the URL after a successful action. */
const DIALOG_PARAMS = ['create', 'edit', 'confirm', 'index'] as const

function withoutDialogs(requestUrl: string, keep: string[] = []) {
  const url = new URL(requestUrl)
  for (const param of DIALOG_PARAMS) if (!keep.includes(param)) url.searchParams.delete(param)
  url.searchParams.delete('index')
  return `${url.pathname}${url.search}`
}

function parseConfirm(value: string | null) {
  const match = /^(end|delete|deleteBot):(.{1,64})$/.exec(value ?? '')
  return match ? { kind: match[1] as 'end' | 'delete' | 'deleteBot', id: match[2]! } : null
}

function editable(auction: NonNullable<Awaited<ReturnType<typeof getAuctionById>>>) {
  const { id, title, description, imageUrl, retailPrice, startTime, status } = auction
  const { condition, category, estimatedValue, featured, isBidPackage } = auction
  return {
    id,
    title,
    description,
    imageUrl,
    retailPrice,
    startTime,
    status,
    condition,
    category,
    estimatedValue,
    featured,
    isBidPackage,
  } satisfies EditableAuction
}

async function systemStats() {
  const prisma = getPrisma()
  const [byStatus, bots, activeBots] = await Promise.all([
    prisma.auction.groupBy({ by: ['status'], _count: { _all: true } }),
    prisma.bot.count(),
    prisma.bot.count({ where: { isActive: true } }),
  ])
  const count = (status: string) => byStatus.find((row) => row.status === status)?._count._all ?? 0
  const live = count('live')
  const upcoming = count('upcoming')
  const finished = count('finished')
  return { total: live + upcoming + finished, live, upcoming, finished, bots, activeBots }
}

async function upcomingBidPackages(engine: Parameters<typeof getAuctionById>[0]) {
  const rows = await getPrisma().auction.findMany({
    where: { status: 'upcoming', isBidPackage: true },
    orderBy: [{ startTime: 'asc' }, { id: 'asc' }],
    take: BID_PACKAGES_SHOWN,
    select: { id: true },
  })
  const views = await Promise.all(rows.map((row) => getAuctionById(engine, row.id)))
  return views
    .filter((view) => view !== null && view.status === 'upcoming')
    .map((view) => ({
      id: view!.id,
      displayId: view!.displayId,
      slug: view!.slug,
      title: view!.title,
      startTime: view!.startTime,
      prebidsCount: view!.prebidsCount,
    }))
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request)
  const t = await getFixedT(request, NS)
  const params = new URL(request.url).searchParams
  const editId = params.get('edit')
  const confirm = parseConfirm(params.get('confirm'))
  const confirmAuctionId = confirm && confirm.kind !== 'deleteBot' ? confirm.id : null
  const [stats, open, packages, botSettings, bots, edit, assignments, allBots, confirmAuction] =
    await Promise.all([
      systemStats(),
      getOpenAuctionsPage(context.engine, pageParam(params.get('page')), AUCTIONS_PER_PAGE),
      upcomingBidPackages(context.engine),
      getBotSettings(),
      listBots(pageParam(params.get('botsPage')), BOTS_PER_PAGE),
      editId ? getAuctionById(context.engine, editId) : null,
      editId
        ? listAssignments(editId).catch((error: unknown) => {
            if (error instanceof AdminError) return []
            throw error
          })
        : [],
      editId
        ? getPrisma().bot.findMany({
            orderBy: [{ username: 'asc' }],
            select: { id: true, username: true, firstName: true, lastName: true, isActive: true },
          })
        : [],
      confirmAuctionId ? getAuctionById(context.engine, confirmAuctionId) : null,
    ])
  const confirmBot =
    confirm?.kind === 'deleteBot'
      ? await getPrisma().bot.findUnique({
          where: { id: confirm.id },
          select: { id: true, username: true },
        })
      : null
  return {
    title: t('title'),
    stats,
    // Ended a moment ago: the engine knows before Postgres does.
    auctions: open.auctions.filter((auction) => auction.status !== 'finished'),
    page: open.page,
    totalPages: open.totalPages,
    total: open.total,
    packages,
    botSettings,
    bots,
    create: params.get('create') === '1',
    edit: editId
      ? {
          id: editId,
          auction: edit ? editable(edit) : null,
          assignments: assignments.map((row) => ({
            botId: row.botId,
            username: row.bot.username,
            name: `${row.bot.firstName} ${row.bot.lastName}`,
            bidLimit: row.bidLimit,
            currentBids: row.currentBids,
          })),
          bots: allBots.map((bot) => ({
            id: bot.id,
            label: `${bot.username} (${bot.firstName} ${bot.lastName})`,
          })),
        }
      : null,
    confirm: confirm
      ? {
          kind: confirm.kind,
          id: confirm.id,
          name:
            confirm.kind === 'deleteBot'
              ? (confirmBot?.username ?? null)
              : (confirmAuction?.title ?? null),
          status: confirmAuction?.status ?? null,
          prebids: confirmAuction?.prebidsCount ?? 0,
        }
      : null,
  }
}

export async function clientLoader({ serverLoader }: ClientLoaderFunctionArgs) {
  const [loaded] = await Promise.all([
    serverLoader<typeof loader>(),
    i18next.loadNamespaces([...NS]),
  ])
  return loaded
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }]

const idSchema = z.string().min(1).max(64)

export async function action({ request, context }: ActionFunctionArgs) {
  await requireAdmin(request)
  const t = await getFixedT(request, [...NS, 'common'])
  const form = await readForm(request)
  const intent = String(form.get('intent') ?? '')
  const back = withoutDialogs(request.url)

  /** A refused form: its errors (field or form-level keys) with a toast saying what failed. */
  const refuse = async (status: number, result: SubmissionResult<string[]>, title: string) => {
    refuseTamperedForm(result.error, ['id', 'auctionId'], t)
    const first = Object.values(result.error ?? {})
      .flat()
      .find(Boolean)
    const headers = await createToastHeaders({
      type: 'error',
      title,
      description: first ? t(first.startsWith('validation.') ? first : `admin:${first}`) : title,
    })
    return data({ intent, result, error: null as string | null }, { status, headers })
  }
  /** A refused confirmation: a message in the dialog (and a toast). */
  const refuseMessage = async (status: number, key: string, title: string) => {
    const message = t(`admin:${key}`)
    const headers = await createToastHeaders({ type: 'error', title, description: message })
    return data({ intent, result: null, error: message }, { status, headers })
  }
  const guard = async <A, B>(
    run: () => Promise<A>,
    onError: (error: AdminError) => Promise<B>,
  ): Promise<A | B> => {
    try {
      return await run()
    } catch (error) {
      if (error instanceof AdminError) return onError(error)
      throw error
    }
  }

  if (intent === 'create' || intent === 'update') {
    const schema = auctionFormSchemas[intent]
    const submission = parseWithZod(form, { schema })
    const failedTitle = t('form.failed')
    if (submission.status !== 'success') return refuse(400, submission.reply(), failedTitle)
    return guard(
      async () => {
        if (submission.value.intent === 'create') {
          const { intent: _intent, ...input } = submission.value
          const auction = await createAuction(context.engine, input)
          // Back to the table page that shows the new auction.
          const page = await getOpenAuctionPageOf(auction.id, AUCTIONS_PER_PAGE)
          const url = new URL(back, request.url)
          if (page > 1) url.searchParams.set('page', String(page))
          else url.searchParams.delete('page')
          return redirectWithToast(`${url.pathname}${url.search}`, {
            type: 'success',
            description: t('form.created', { title: auction.title }),
          })
        }
        const { intent: _intent, id, ...input } = submission.value
        const auction = await updateAuction(context.engine, id, input)
        return redirectWithToast(back, {
          type: 'success',
          description: t('form.saved', { title: auction.title }),
        })
      },
      (error) => refuse(error.status, submission.reply({ formErrors: [error.key] }), failedTitle),
    )
  }

  if (intent === 'end' || intent === 'delete') {
    const id = idSchema.safeParse(form.get('id'))
    if (!id.success) throw data(t('admin:errors.invalid'), { status: 400 })
    const auction = await getAuctionById(context.engine, id.data)
    const title = auction?.title ?? ''
    return guard(
      async () => {
        if (intent === 'end') await endAuction(context.engine, id.data)
        else await deleteAuction(context.engine, id.data)
        return redirectWithToast(back, {
          type: 'success',
          description: t(`${intent}.done`, { title }),
        })
      },
      (error) => refuseMessage(error.status, error.key, t(`${intent}.failed`)),
    )
  }

  if (intent === 'assign' || intent === 'unassign') {
    // The edit dialog stays open: bots are managed there.
    const here = withoutDialogs(request.url, ['edit'])
    if (intent === 'unassign') {
      const auctionId = idSchema.safeParse(form.get('auctionId'))
      const botId = idSchema.safeParse(form.get('botId'))
      if (!auctionId.success || !botId.success) {
        throw data(t('admin:errors.invalid'), { status: 400 })
      }
      const name = String(form.get('botName') ?? '').slice(0, 64)
      return guard(
        async () => {
          await unassignBot(auctionId.data, botId.data)
          return redirectWithToast(here, {
            type: 'success',
            description: t('assign.removed', { name }),
          })
        },
        (error) => refuseMessage(error.status, error.key, t('assign.failed')),
      )
    }
    const submission = parseWithZod(form, { schema: assignFormSchema })
    if (submission.status !== 'success') {
      return refuse(400, submission.reply(), t('assign.failed'))
    }
    const { auctionId, botId, bidLimit } = submission.value
    return guard(
      async () => {
        await assignBot(auctionId, botId, bidLimit)
        const bot = await getPrisma().bot.findUnique({
          where: { id: botId },
          select: { username: true },
        })
        return redirectWithToast(here, {
          type: 'success',
          description: t('assign.added', { name: bot?.username ?? '' }),
        })
      },
      (error) =>
        refuse(error.status, submission.reply({ formErrors: [error.key] }), t('assign.failed')),
    )
  }

  if (intent === 'botSettings') {
    const submission = parseWithZod(form, { schema: botSettingsFormSchema })
    if (submission.status !== 'success') {
      return refuse(400, submission.reply(), t('botSettings.failed'))
    }
    const { intent: _intent, ...input } = submission.value
    return guard(
      async () => {
        await updateBotSettings(input)
        return redirectWithToast(back, { type: 'success', description: t('botSettings.saved') })
      },
      (error) =>
        refuse(
          error.status,
          submission.reply({ formErrors: [error.key] }),
          t('botSettings.failed'),
        ),
    )
  }

  if (intent === 'createBot') {
    const submission = parseWithZod(form, { schema: botCreateFormSchema })
    if (submission.status !== 'success') {
      return refuse(400, submission.reply(), t('bots.failed'))
    }
    const { intent: _intent, ...input } = submission.value
    return guard(
      async () => {
        const bot = await createBot({ ...input, username: null, isActive: true })
        return redirectWithToast(back, {
          type: 'success',
          description: t('bots.created', { name: bot.username }),
        })
      },
      (error) =>
        refuse(error.status, submission.reply({ formErrors: [error.key] }), t('bots.failed')),
    )
  }

  if (intent === 'deleteBot') {
    const id = idSchema.safeParse(form.get('id'))
    if (!id.success) throw data(t('admin:errors.invalid'), { status: 400 })
    const bot = await getPrisma().bot.findUnique({
      where: { id: id.data },
      select: { username: true },
    })
    return guard(
      async () => {
        await deleteBot(id.data)
        return redirectWithToast(back, {
          type: 'success',
          description: t('bots.deleted', { name: bot?.username ?? '' }),
        })
      },
      (error) => refuseMessage(error.status, error.key, t('bots.deleteFailed')),
    )
  }

  throw data(t('admin:errors.invalid'), { status: 400 })
}

export default function AdminDashboardRoute() {
  const loaded = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const location = useLocation()
  const { t } = useTranslation(NS)

  /** This page's URL with `extra` set (null removes); pages are kept, dialogs closed. */
  const href = (extra: Record<string, string | null> = {}) => {
    const params = new URLSearchParams(location.search)
    for (const param of DIALOG_PARAMS) params.delete(param)
    for (const [key, value] of Object.entries(extra)) {
      if (value === null) params.delete(key)
      else params.set(key, value)
    }
    const query = params.toString()
    return `/admin${query ? `?${query}` : ''}`
  }
  const closeTo = href()
  const resultFor = (intent: string) =>
    actionData?.intent === intent && actionData.result ? actionData.result : undefined
  const errorFor = (intent: string) =>
    actionData?.intent === intent ? (actionData.error ?? null) : null
  const first = (loaded.page - 1) * AUCTIONS_PER_PAGE + 1
  const last = Math.min(loaded.total, loaded.page * AUCTIONS_PER_PAGE)
  const confirm = loaded.confirm

  return (
    <div className="space-y-8">
      <div className="space-y-2">
        <h1 className="text-3xl font-bold">{t('title')}</h1>
        <p className="text-slate-700">{t('intro')}</p>
      </div>

      <AdminNav />
      <SystemStats stats={loaded.stats} />

      <section aria-labelledby="auctions-heading" className="space-y-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="auctions-heading" className="text-xl font-semibold">
            {t('auctions.heading')}
          </h2>
          <Link
            to={href({ create: '1' })}
            preventScrollReset
            className="inline-flex items-center gap-2 rounded-md bg-amber-700 px-4 py-2 font-semibold text-white hover:bg-amber-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-amber-400 focus-visible:ring-offset-2"
          >
            <Plus aria-hidden className="h-4 w-4" />
            {t('auctions.create')}
          </Link>
        </div>
        {loaded.auctions.length === 0 ? (
          <p className="rounded-xl border border-dashed border-slate-300 p-6 text-center text-slate-600">
            {t('auctions.empty')}
          </p>
        ) : (
          <>
            <AuctionsTable
              auctions={loaded.auctions}
              caption={t('auctions.caption', { page: loaded.page, pages: loaded.totalPages })}
              href={(param, value) => href({ [param]: value })}
            />
            <p className="text-center text-sm text-slate-700" role="status">
              {t('auctions.range', { from: first, to: last, total: loaded.total })}
            </p>
          </>
        )}
        <Pager
          page={loaded.page}
          totalPages={loaded.totalPages}
          href={(n) => href({ page: n > 1 ? String(n) : null })}
        />
      </section>

      <BidPackages packages={loaded.packages} />

      <div className="grid gap-6 lg:grid-cols-2 [&>*]:min-w-0">
        <BotSettingsCard settings={loaded.botSettings} lastResult={resultFor('botSettings')} />
        <BotListCard
          bots={loaded.bots}
          lastResult={resultFor('createBot')}
          pageHref={(n) => href({ botsPage: n > 1 ? String(n) : null })}
          deleteHref={(id) => href({ confirm: `deleteBot:${id}` })}
        />
      </div>

      {loaded.create ? (
        <UrlDialog open wide closeTo={closeTo} title={t('form.createTitle')}>
          <AuctionForm mode="create" lastResult={resultFor('create')} closeTo={closeTo} />
        </UrlDialog>
      ) : null}

      {loaded.edit ? (
        <UrlDialog
          open
          wide
          closeTo={closeTo}
          title={t('form.editTitle', { title: loaded.edit.auction?.title ?? '' })}
        >
          {loaded.edit.auction && loaded.edit.auction.status !== 'finished' ? (
            <div className="space-y-6">
              <AuctionForm
                key={loaded.edit.auction.id}
                mode="edit"
                auction={loaded.edit.auction}
                lastResult={resultFor('update')}
                closeTo={closeTo}
              />
              <AuctionBots
                auctionId={loaded.edit.auction.id}
                assignments={loaded.edit.assignments}
                bots={loaded.edit.bots}
                lastResult={resultFor('assign')}
                error={errorFor('unassign')}
              />
            </div>
          ) : (
            <p className="text-slate-700">
              {t(loaded.edit.auction ? 'admin:errors.auctionFinished' : 'form.notFound')}
            </p>
          )}
        </UrlDialog>
      ) : null}

      {confirm ? (
        <UrlDialog
          open
          closeTo={closeTo}
          title={
            confirm.kind === 'end'
              ? t('end.title', { title: confirm.name ?? '' })
              : confirm.kind === 'delete'
                ? t('delete.title', { title: confirm.name ?? '' })
                : t('bots.deleteTitle', { name: confirm.name ?? '' })
          }
          description={
            confirm.name === null
              ? t(confirm.kind === 'deleteBot' ? 'bots.notFound' : 'form.notFound')
              : confirm.kind === 'end'
                ? t('end.text')
                : confirm.kind === 'deleteBot'
                  ? t('bots.deleteText')
                  : confirm.status === 'upcoming'
                    ? t('delete.textUpcoming', { count: confirm.prebids })
                    : t('delete.text')
          }
        >
          {errorFor(confirm.kind) ? (
            <p
              role="alert"
              className="mb-3 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800"
            >
              {errorFor(confirm.kind)}
            </p>
          ) : null}
          <ConfirmForm
            intent={confirm.kind}
            id={confirm.id}
            confirmLabel={t(
              confirm.kind === 'end'
                ? 'end.confirm'
                : confirm.kind === 'delete'
                  ? 'delete.confirm'
                  : 'bots.deleteConfirm',
            )}
            cancelTo={closeTo}
          />
        </UrlDialog>
      ) : null}
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
