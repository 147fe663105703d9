import {
  getFormProps,
  getInputProps,
  getSelectProps,
  useForm,
  type SubmissionResult,
} from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod'
import { Form, Link, useNavigation } from '@remix-run/react'
import { Bot, Loader2, Trash2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { adminErrorKeys } from '~/components/admin/dashboard-auction-form.tsx'
import { Field, FormError } from '~/components/field.tsx'
import { Pager } from '~/components/pager.tsx'
import { formatDate } from '~/utils/dates.ts'
import { botAssignSchema, botCreateSchema, botSettingsSchema } from '~/validation/admin.ts'

// The dashboard's bot cards (docs/rules.md#bots) and the bots of
// one auction, shown in its edit dialog.

/** The page always sends every setting; an unchecked box is "off", not "unchanged". */
export const botSettingsFormSchema = botSettingsSchema.extend({
  intent: z.literal('botSettings'),
  enabled: botSettingsSchema.shape.enabled.unwrap(),
  minDelay: botSettingsSchema.shape.minDelay.unwrap(),
  maxDelay: botSettingsSchema.shape.maxDelay.unwrap(),
  activeBots: botSettingsSchema.shape.activeBots.unwrap(),
})

/** A new bot from the page: names only; the username is generated. */
export const botCreateFormSchema = botCreateSchema
  .pick({ firstName: true, lastName: true })
  .extend({ intent: z.literal('createBot') })

export const assignFormSchema = botAssignSchema.extend({
  intent: z.literal('assign'),
  auctionId: z.string().min(1).max(64),
})

/** Conform reads a preprocessed checkbox or defaulted field as required; these are not. */
function optional<T extends Record<string, { required?: boolean }>>(
  constraint: T,
  names: string[],
) {
  return Object.fromEntries(
    Object.entries(constraint).map(([name, rule]) => [
      name,
      names.includes(name) ? { ...rule, required: false } : rule,
    ]),
  ) as T
}
const botSettingsConstraint = optional(getZodConstraint(botSettingsFormSchema), ['enabled'])
const assignConstraint = optional(getZodConstraint(assignFormSchema), ['bidLimit'])

const button =
  'flex items-center justify-center gap-2 rounded-md bg-amber-700 px-4 py-2 font-semibold text-white hover:bg-amber-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-amber-400 focus-visible:ring-offset-2 disabled:opacity-70'
const card = 'space-y-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm'
const selectClass =
  'w-full rounded-md border border-slate-300 bg-white px-3 py-2 shadow-sm focus:border-amber-500 focus:outline-none focus:ring-2 focus:ring-amber-200 aria-[invalid]:border-red-500'

function useBusy(intent: string) {
  const navigation = useNavigation()
  return navigation.state === 'submitting' && navigation.formData?.get('intent') === intent
}

export function BotSettingsCard({
  settings,
  lastResult,
}: {
  settings: { enabled: boolean; minDelay: number; maxDelay: number; activeBots: number }
  lastResult?: SubmissionResult<string[]>
}) {
  const { t } = useTranslation(['admin-dashboard', 'admin'])
  const busy = useBusy('botSettings')
  const [form, fields] = useForm({
    id: 'bot-settings',
    lastResult,
    constraint: botSettingsConstraint,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    defaultValue: {
      enabled: settings.enabled ? 'on' : '',
      minDelay: String(settings.minDelay),
      maxDelay: String(settings.maxDelay),
      activeBots: String(settings.activeBots),
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: botSettingsFormSchema }),
  })
  return (
    <section aria-labelledby="bot-settings-heading" className={card}>
      <h2 id="bot-settings-heading" className="text-xl font-semibold">
        {t('botSettings.heading')}
      </h2>
      <Form method="post" preventScrollReset {...getFormProps(form)} className="space-y-4">
        <input type="hidden" name="intent" value="botSettings" />
        <FormError errors={adminErrorKeys(form.errors)} />
        <label className="flex items-center gap-2 font-medium">
          <input
            {...getInputProps(fields.enabled, { type: 'checkbox' })}
            className="h-4 w-4 accent-amber-700"
          />
          {t('botSettings.enabled')}
        </label>
        <div className="grid gap-4 sm:grid-cols-3">
          <Field
            label={t('botSettings.minDelay')}
            hint={t('botSettings.delayHint')}
            errors={adminErrorKeys(fields.minDelay.errors)}
            {...getInputProps(fields.minDelay, { type: 'number' })}
          />
          <Field
            label={t('botSettings.maxDelay')}
            hint={t('botSettings.delayHint')}
            errors={adminErrorKeys(fields.maxDelay.errors)}
            {...getInputProps(fields.maxDelay, { type: 'number' })}
          />
          <Field
            label={t('botSettings.activeBots')}
            hint={t('botSettings.activeHint')}
            errors={adminErrorKeys(fields.activeBots.errors)}
            {...getInputProps(fields.activeBots, { type: 'number' })}
          />
        </div>
        <button type="submit" disabled={busy} className={button}>
          {busy ? <Loader2 aria-hidden className="h-4 w-4 animate-spin" /> : null}
          {t('botSettings.save')}
        </button>
      </Form>
    </section>
  )
}

type BotRow = {
  id: string
  username: string
  firstName: string
  lastName: string
  isActive: boolean
  createdAt: string
}

export function BotListCard({
  bots,
  lastResult,
  pageHref,
  deleteHref,
}: {
  bots: { bots: BotRow[]; total: number; page: number; totalPages: number }
  lastResult?: SubmissionResult<string[]>
  pageHref: (page: number) => string
  deleteHref: (id: string) => string
}) {
  const { t } = useTranslation(['admin-dashboard', 'admin'])
  const busy = useBusy('createBot')
  const [form, fields] = useForm({
    id: 'create-bot',
    lastResult,
    constraint: getZodConstraint(botCreateFormSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: botCreateFormSchema }),
  })
  return (
    <section aria-labelledby="bots-heading" className={card}>
      <h2 id="bots-heading" className="flex items-center gap-2 text-xl font-semibold">
        <Bot aria-hidden className="h-5 w-5 text-amber-700" />
        {t('bots.heading')}
      </h2>
      {bots.bots.length === 0 ? (
        <p className="text-slate-600">{t('bots.empty')}</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full min-w-[28rem] text-left text-sm">
            <caption className="sr-only">
              {t('bots.caption', { page: bots.page, pages: bots.totalPages, total: bots.total })}
            </caption>
            <thead className="text-slate-700">
              <tr>
                <th scope="col" className="py-2 pr-3 font-semibold">
                  {t('bots.username')}
                </th>
                <th scope="col" className="py-2 pr-3 font-semibold">
                  {t('bots.name')}
                </th>
                <th scope="col" className="py-2 pr-3 font-semibold">
                  {t('bots.createdAt')}
                </th>
                <th scope="col" className="py-2 font-semibold">
                  <span className="sr-only">{t('bots.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
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
            </tbody>
          </table>
        </div>
      )}
      <Pager page={bots.page} totalPages={bots.totalPages} href={pageHref} />

      <Form
        method="post"
        preventScrollReset
        {...getFormProps(form)}
        className="space-y-3 border-t border-slate-200 pt-4"
      >
        <h3 className="font-semibold">{t('bots.createHeading')}</h3>
        <input type="hidden" name="intent" value="createBot" />
        <FormError errors={adminErrorKeys(form.errors)} />
        <div className="grid gap-3 sm:grid-cols-2">
          <Field
            label={`${t('bots.firstName')} *`}
            autoComplete="off"
            errors={adminErrorKeys(fields.firstName.errors)}
            {...getInputProps(fields.firstName, { type: 'text' })}
          />
          <Field
            label={`${t('bots.lastName')} *`}
            autoComplete="off"
            errors={adminErrorKeys(fields.lastName.errors)}
            {...getInputProps(fields.lastName, { type: 'text' })}
          />
        </div>
        <p className="text-sm text-slate-600">{t('bots.usernameHint')}</p>
        <button type="submit" disabled={busy} className={button}>
          {busy ? <Loader2 aria-hidden className="h-4 w-4 animate-spin" /> : null}
          {t('bots.create')}
        </button>
      </Form>
    </section>
  )
}

type Assignment = {
  botId: string
  username: string
  name: string
  bidLimit: number
  currentBids: number
}

/** The bots of one auction, in its edit dialog: remove one, or add one with a bid limit. */
export function AuctionBots({
  auctionId,
  assignments,
  bots,
  lastResult,
  error,
}: {
  auctionId: string
  assignments: Assignment[]
  bots: Array<{ id: string; label: string }>
  lastResult?: SubmissionResult<string[]>
  error: string | null
}) {
  const { t } = useTranslation(['admin-dashboard', 'admin'])
  const busy = useBusy('assign')
  const [form, fields] = useForm({
    id: `assign-bot-${auctionId}`,
    lastResult,
    constraint: assignConstraint,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    defaultValue: { bidLimit: '0' },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: assignFormSchema }),
  })
  const botError = adminErrorKeys(fields.botId.errors)?.[0]
  const assigned = new Set(assignments.map((row) => row.botId))
  return (
    <section aria-labelledby="auction-bots-heading" className="space-y-3 border-t pt-4">
      <h3 id="auction-bots-heading" className="text-lg font-semibold">
        {t('assign.heading')}
      </h3>
      {error ? (
        <p
          role="alert"
          className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800"
        >
          {error}
        </p>
      ) : null}
      {assignments.length === 0 ? (
        <p className="text-slate-600">{t('assign.empty')}</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {assignments.map((row) => (
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
              <Form method="post" preventScrollReset>
                <input type="hidden" name="intent" value="unassign" />
                <input type="hidden" name="auctionId" value={auctionId} />
                <input type="hidden" name="botId" value={row.botId} />
                <input type="hidden" name="botName" value={row.username} />
                <button
                  type="submit"
                  aria-label={t('assign.removeLabel', { name: row.username })}
                  className="rounded-md border border-red-300 px-3 py-1 text-sm font-semibold text-red-800 hover:bg-red-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-amber-400"
                >
                  {t('assign.remove')}
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
      <Form
        method="post"
        preventScrollReset
        {...getFormProps(form)}
        className="grid items-start gap-3 sm:grid-cols-[1fr_10rem_auto]"
      >
        <input type="hidden" name="intent" value="assign" />
        <input type="hidden" name="auctionId" value={auctionId} />
        <div className="sm:col-span-3">
          <FormError errors={adminErrorKeys(form.errors)} />
        </div>
        <div className="space-y-1">
          <label htmlFor={fields.botId.id} className="block text-sm font-medium text-slate-800">
            {t('assign.bot')}
          </label>
          <select
            {...getSelectProps(fields.botId)}
            aria-describedby={botError ? `${fields.botId.id}-error` : undefined}
            className={selectClass}
          >
            <option value="">{t('assign.pick')}</option>
            {bots.map((bot) => (
              <option key={bot.id} value={bot.id}>
                {assigned.has(bot.id) ? t('assign.alreadyMark', { label: bot.label }) : bot.label}
              </option>
            ))}
          </select>
          {botError ? (
            <p id={`${fields.botId.id}-error`} role="alert" className="text-sm text-red-700">
              {t(botError)}
            </p>
          ) : null}
        </div>
        <Field
          label={t('assign.limit')}
          hint={t('assign.limitHint')}
          errors={adminErrorKeys(fields.bidLimit.errors)}
          {...getInputProps(fields.bidLimit, { type: 'number' })}
        />
        <button type="submit" disabled={busy} className={`${button} sm:mt-6`}>
          {busy ? <Loader2 aria-hidden className="h-4 w-4 animate-spin" /> : null}
          {t('assign.add')}
        </button>
      </Form>
    </section>
  )
}
