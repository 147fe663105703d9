import { type SubmissionResult } from '@conform-to/react'
import { Link } from '@remix-run/react'
import { Bot, Trash2 } from 'lucide-react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { AdminField } from '~/components/admin/admin-field.tsx'
import { useFetcherForm } from '~/components/admin/fetcher-form.ts'
import { adminErrorKeys } from '~/components/admin/form-helpers.ts'
import { DashboardCard } from '~/components/admin/dashboard-card.tsx'
import { FormError } from '~/components/ui/field.tsx'
import { Pager } from '~/components/pager.tsx'
import { formatDate } from '~/utils/dates.ts'
import { botCreateSchema } from '~/validation/admin-bots.ts'
import { Table } from '~/components/ui/table.tsx'
import { SaveButton } from '~/components/ui/button.tsx'

// The dashboard's bots: the list, each with a link to its delete dialog route, and the form for a
// new bot, which posts to its own route (admin._dashboard.bots.new); with JavaScript through a
// fetcher, so a refusal shows in place.

/** A new bot from the page: names only; the username is generated. */
export const BotCreateFormSchema = botCreateSchema.pick({ firstName: true, lastName: true })

type BotRow = {
  id: string
  username: string
  firstName: string
  lastName: string
  isActive: boolean
  createdAt: string
}

export function BotCreateForm({
  action,
  lastResult,
}: {
  action: string
  /** A refusal the server rendered (a post without JavaScript). */
  lastResult?: SubmissionResult<string[]>
}) {
  const { t } = useTranslation(['admin-dashboard', 'admin'])
  const { fetcher, busy, form, fields, formProps } = useFetcherForm({
    id: 'create-bot',
    schema: BotCreateFormSchema,
    lastResult,
  })
  return (
    <fetcher.Form action={action} {...formProps} className="space-y-3">
      <FormError errors={adminErrorKeys(form.errors)} />
      <div className="grid gap-3 sm:grid-cols-2">
        <AdminField meta={fields.firstName} label={`${t('bots.firstName')} *`} />
        <AdminField meta={fields.lastName} label={`${t('bots.lastName')} *`} />
      </div>
      <p className="text-sm text-slate-600">{t('bots.usernameHint')}</p>
      <SaveButton pending={busy}>{t('bots.create')}</SaveButton>
    </fetcher.Form>
  )
}

/**
 * The list of bots and, below it, the new-bot form (`createAction`; left out, as null, while
 * that form is open in its own dialog route).
 */
export function BotListCard({
  bots,
  createAction,
  pageHref,
  deleteHref,
}: {
  bots: { bots: BotRow[]; total: number; page: number; totalPages: number }
  createAction: string | null
  pageHref: (page: number) => string
  deleteHref: (id: string) => string
}) {
  const { t } = useTranslation(['admin-dashboard', 'admin'])
  return (
    <DashboardCard
      id="bots-heading"
      heading={t('bots.heading')}
      icon={<Bot aria-hidden className="h-5 w-5 text-amber-700" />}
    >
      {bots.bots.length === 0 ? (
        <p className="text-slate-600">{t('bots.empty')}</p>
      ) : (
        <Table
          caption={t('bots.caption', {
            page: bots.page,
            pages: bots.totalPages,
            total: bots.total,
          })}
          columns={[
            t('bots.username'),
            t('bots.name'),
            t('bots.createdAt'),
            { label: t('bots.actions'), hidden: true },
          ]}
          width="sm"
          look="card"
        >
          {bots.bots.map((bot) => (
            <tr key={bot.id}>
              <th scope="row" className="py-2 pr-3 font-medium">
                {bot.username}
                {bot.isActive ? null : (
                  <span className="ml-2 rounded bg-slate-200 px-1.5 py-0.5 text-xs">
                    {t('bots.inactive')}
                  </span>
                )}
              </th>
              <td className="py-2 pr-3">
                {bot.firstName} {bot.lastName}
              </td>
              <td className="whitespace-nowrap py-2 pr-3 tabular-nums">
                {formatDate(bot.createdAt)}
              </td>
              <td className="py-2 text-right">
                <Link
                  to={deleteHref(bot.id)}
                  preventScrollReset
                  aria-label={t('bots.deleteLabel', { name: bot.username })}
                  className="inline-flex items-center gap-1 rounded-md border border-red-300 px-2 py-1 text-sm font-semibold text-red-800 hover:bg-red-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-amber-400"
                >
                  <Trash2 aria-hidden className="h-4 w-4" />
                  {t('bots.delete')}
                </Link>
              </td>
            </tr>
          ))}
        </Table>
      )}
      <Pager page={bots.page} totalPages={bots.totalPages} href={pageHref} />

      {createAction ? (
        <div className="space-y-3 border-t border-slate-200 pt-4">
          <h3 className="font-semibold">{t('bots.createHeading')}</h3>
          <BotCreateForm action={createAction} />
        </div>
      ) : null}
    </DashboardCard>
  )
}
