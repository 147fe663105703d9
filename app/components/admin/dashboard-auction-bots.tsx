import { getSelectProps, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint } from '@conform-to/zod'
import { useFetcher } from '@remix-run/react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { AdminField } from '~/components/admin/admin-field.tsx'
import { useFetcherForm } from '~/components/admin/fetcher-form.ts'
import { adminErrorKeys, notRequired } from '~/components/admin/form-helpers.ts'
import { FormError, SelectField } from '~/components/ui/field.tsx'
import type { AuctionForEdit } from '~/models/admin-dashboard.server.ts'
import { botAssignSchema } from '~/validation/admin-bots.ts'
import { Alert } from '~/components/ui/alert.tsx'
import { SaveButton } from '~/components/ui/button.tsx'

// The bots of one auction, in its edit dialog.
// Adding one posts to admin._dashboard.auctions.$id.assign, removing one to ….unassign; with
// JavaScript through fetchers, so the dialog stays as it is and a refusal shows in it.

const constraint = notRequired(getZodConstraint(botAssignSchema), ['bidLimit'])

export function AuctionBots({
  auction,
  assignAction,
  unassignAction,
  assignResult,
  unassignError,
}: {
  auction: Pick<AuctionForEdit, 'id' | 'assignments' | 'bots'>
  assignAction: string
  unassignAction: string
  /** Refusals the server rendered (posts without JavaScript). */
  assignResult?: SubmissionResult<string[]>
  unassignError?: string | null
}) {
  const { t } = useTranslation(['admin-dashboard', 'admin'])
  const {
    fetcher: assign,
    busy,
    form,
    fields,
    formProps,
  } = useFetcherForm({
    id: `assign-bot-${auction.id}`,
    schema: botAssignSchema,
    lastResult: assignResult,
    constraint,
    defaultValue: { bidLimit: '0' },
  })
  const unassign = useFetcher<{ error: string }>({ key: `unassign-bot-${auction.id}` })
  const error = unassign.data?.error ?? unassignError
  const botError = adminErrorKeys(fields.botId.errors)?.[0]
  const assigned = new Set(auction.assignments.map((row) => row.botId))
  return (
    <section aria-labelledby="auction-bots-heading" className="space-y-3 border-t pt-4">
      <h3 id="auction-bots-heading" className="text-lg font-semibold">
        {t('assign.heading')}
      </h3>
      {error ? <Alert>{error}</Alert> : null}
      {auction.assignments.length === 0 ? (
        <p className="text-slate-600">{t('assign.empty')}</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {auction.assignments.map((row) => (
            <li key={row.botId} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <div className="min-w-0">
                <p className="font-medium">{row.username}</p>
                <p className="text-sm text-slate-600">
                  {row.name} ·{' '}
                  {row.bidLimit === 0
                    ? t('assign.bidsUnlimited', { current: row.currentBids })
                    : t('assign.bids', { current: row.currentBids, limit: row.bidLimit })}
                </p>
              </div>
              <unassign.Form method="post" action={unassignAction} preventScrollReset>
                <input type="hidden" name="botId" value={row.botId} />
                <button
                  type="submit"
                  aria-label={t('assign.removeLabel', { name: row.username })}
                  className="rounded-md border border-red-300 px-3 py-1 text-sm font-semibold text-red-800 hover:bg-red-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-amber-400"
                >
                  {t('assign.remove')}
                </button>
              </unassign.Form>
            </li>
          ))}
        </ul>
      )}
      <assign.Form
        action={assignAction}
        {...formProps}
        className="grid items-start gap-3 sm:grid-cols-[1fr_10rem_auto]"
      >
        <div className="sm:col-span-3">
          <FormError errors={adminErrorKeys(form.errors)} />
        </div>
        <SelectField label={t('assign.bot')} error={botError} {...getSelectProps(fields.botId)}>
          <option value="">{t('assign.pick')}</option>
          {auction.bots.map((bot) => (
            <option key={bot.id} value={bot.id}>
              {assigned.has(bot.id) ? t('assign.alreadyMark', { label: bot.label }) : bot.label}
            </option>
          ))}
        </SelectField>
        <AdminField
          meta={fields.bidLimit}
          type="number"
          label={t('assign.limit')}
          hint={t('assign.limitHint')}
        />
        <SaveButton pending={busy} className="sm:mt-6">
          {t('assign.add')}
        </SaveButton>
      </assign.Form>
    </section>
  )
}
