import { getFormProps, getInputProps, getSelectProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod'
import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import {
  Form,
  Link,
  useActionData,
  useLoaderData,
  useNavigation,
  type ClientLoaderFunctionArgs,
} from '@remix-run/react'
import i18next from 'i18next'
import { ImageOff, Loader2 } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LoginRequired } from '~/components/login-required.tsx'
import { Field } from '~/components/field.tsx'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { MyOrders, ORDERS_NS } from '~/components/orders/my-orders.tsx'
import {
  getUserBids,
  getUserStats,
  getWonAuctions,
  RECENT_BIDS,
  updateProfile,
} from '~/models/account.server.ts'
import { listUserOrders } from '~/models/order.server.ts'
import { DuplicateError } from '~/models/user.server.ts'
import { getUserView } from '~/models/user-view.server.ts'
import { getFixedT } from '~/services/i18n.server.ts'
import { handleDeliveryForm } from '~/services/order-forms.server.ts'
import { getOptionalUser } from '~/services/session.server.ts'
import { createToastHeaders, redirectWithToast } from '~/services/toast.server.ts'
import { formatDate, formatDateTime } from '~/utils/dates.ts'
import { useFormatMoney, useHydrated } from '~/utils/hooks.ts'
import {
  genders,
  latestAdultBirthDate,
  normalizePhoneInput,
  PHONE_PREFIX,
  profileSchema,
} from '~/validation/user.ts'
import { readForm } from '~/utils/form.server.ts'

export const handle = { i18n: [ORDERS_NS] }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const t = await getFixedT(request)
  const current = await getOptionalUser(request)
  const title = t('profile.title')
  if (!current) return data({ account: null, title } as const, { status: 401 })
  const [user, stats, won, recentBids, orders] = await Promise.all([
    getUserView(context.engine, current.id),
    getUserStats(current.id),
    getWonAuctions(current.id),
    getUserBids(current.id, { limit: RECENT_BIDS }),
    listUserOrders(current.id),
  ])
  if (!user) return data({ account: null, title } as const, { status: 401 })
  const editing = new URL(request.url).searchParams.get('edit') === '1'
  return { account: { user, stats, won, recentBids, orders, editing }, title }
}

/** Client-side navigation: the orders namespace is fetched with the data, before it renders. */
export async function clientLoader({ serverLoader }: ClientLoaderFunctionArgs) {
  const [loaded] = await Promise.all([
    serverLoader<typeof loader>(),
    i18next.loadNamespaces(ORDERS_NS),
  ])
  return loaded
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }]

export async function action({ request }: ActionFunctionArgs) {
  const user = await getOptionalUser(request)
  if (!user) throw redirect('/login?redirectTo=%2Fprofile')
  const t = await getFixedT(request)
  const form = await readForm(request)
  if (form.get('intent') === 'delivery') return handleDeliveryForm(request, user.id, form)
  const submission = parseWithZod(form, { schema: profileSchema })
  const failed = async (status: number, result: ReturnType<typeof submission.reply>) => {
    const first = Object.values(result.error ?? {}).flat()[0]
    const headers = await createToastHeaders({
      type: 'error',
      title: t('profile.saveFailed'),
      description: first ? t(first) : t('profile.saveFailed'),
    })
    return data({ result }, { status, headers })
  }
  if (submission.status !== 'success') return failed(400, submission.reply())
  try {
    await updateProfile(user.id, submission.value)
  } catch (error) {
    if (!(error instanceof DuplicateError)) throw error
    return failed(
      409,
      submission.reply({ fieldErrors: { [error.field]: [`validation.${error.field}Taken`] } }),
    )
  }
  return redirectWithToast('/profile', { type: 'success', description: t('profile.saved') })
}

export default function ProfileRoute() {
  const { account } = useLoaderData<typeof loader>()
  const failed = useActionData<typeof action>()
  const { t } = useTranslation()
  if (!account) return <LoginRequired text={t('profile.loginRequired')} back="home" />
  const { user, stats, won, recentBids } = account
  // A failed save comes back to the form with its errors (the post's URL has no ?edit=1).
  const editing = account.editing || Boolean(failed?.result)
  return (
    <div className="space-y-8">
      <h1 className="text-3xl font-bold">{t('profile.title')}</h1>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <section
          aria-labelledby="personal-title"
          className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
        >
          <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
            <h2 id="personal-title" className="text-xl font-semibold">
              {t('profile.personal')}
            </h2>
            {editing ? null : (
              <Link
                to="?edit=1"
                preventScrollReset
                className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-semibold hover:bg-slate-50"
              >
                {t('profile.edit')}
              </Link>
            )}
          </div>
          {editing ? <ProfileForm user={user} /> : <ProfileView user={user} />}
        </section>
        <StatsCard stats={stats} />
      </div>
      <MyOrders orders={account.orders} defaultPhone={user.phone} />
      <WonAuctions won={won} />
      <RecentBids bids={recentBids} />
    </div>
  )
}

type Account = NonNullable<ReturnType<typeof useLoaderData<typeof loader>>['account']>

function ProfileView({ user }: { user: Account['user'] }) {
  const { t } = useTranslation()
  const rows: Array<[string, string]> = [
    [t('profile.username'), user.username],
    [t('profile.bidBalance'), t('profile.bidsCount', { count: user.bidBalance })],
    [t('completeProfile.firstName'), user.firstName ?? '—'],
    [t('completeProfile.lastName'), user.lastName ?? '—'],
    [t('profile.email'), user.email],
    [t('completeProfile.phone'), user.phone ?? '—'],
    [t('completeProfile.dateOfBirth'), user.dateOfBirth ? formatDate(user.dateOfBirth) : '—'],
    [t('completeProfile.gender'), user.gender ? t(`completeProfile.genders.${user.gender}`) : '—'],
    [t('profile.registered'), formatDate(user.createdAt)],
  ]
  return (
    <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-2">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt className="text-sm text-slate-600">{label}</dt>
          <dd className="break-words font-medium">{value}</dd>
        </div>
      ))}
    </dl>
  )
}

function ProfileForm({ user }: { user: Account['user'] }) {
  const { t } = useTranslation()
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const hydrated = useHydrated()
  const [phone, setPhone] = useState(user.phone ?? PHONE_PREFIX)
  const [form, fields] = useForm({
    id: 'profile',
    lastResult: actionData?.result,
    constraint: getZodConstraint(profileSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    defaultValue: {
      firstName: user.firstName ?? '',
      lastName: user.lastName ?? '',
      email: user.email,
      phone: user.phone ?? PHONE_PREFIX,
      dateOfBirth: user.dateOfBirth ?? '',
      gender: user.gender ?? '',
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: profileSchema }),
  })
  const saving = navigation.state === 'submitting' && navigation.formAction === '/profile'
  const phoneProps = getInputProps(fields.phone, { type: 'tel' })
  const genderError = fields.gender.errors?.[0]
  return (
    <Form method="post" action="/profile" {...getFormProps(form)} className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <ReadOnly label={t('profile.username')} value={user.username} />
        <ReadOnly
          label={t('profile.bidBalance')}
          value={t('profile.bidsCount', { count: user.bidBalance })}
        />
        <Field
          label={`${t('completeProfile.firstName')} *`}
          autoComplete="given-name"
          errors={fields.firstName.errors}
          {...getInputProps(fields.firstName, { type: 'text' })}
        />
        <Field
          label={`${t('completeProfile.lastName')} *`}
          autoComplete="family-name"
          errors={fields.lastName.errors}
          {...getInputProps(fields.lastName, { type: 'text' })}
        />
        <Field
          label={`${t('profile.email')} *`}
          autoComplete="email"
          errors={fields.email.errors}
          {...getInputProps(fields.email, { type: 'email' })}
        />
        <Field
          label={t('completeProfile.phone')}
          autoComplete="tel"
          inputMode="tel"
          placeholder="+996XXXXXXXXX"
          hint={t('profile.phoneHint')}
          errors={fields.phone.errors}
          {...phoneProps}
          {...(hydrated
            ? {
                defaultValue: undefined,
                value: phone,
                onChange: (event: React.ChangeEvent<HTMLInputElement>) =>
                  setPhone(normalizePhoneInput(event.currentTarget.value)),
              }
            : {})}
        />
        <Field
          label={t('completeProfile.dateOfBirth')}
          hint={t('completeProfile.adultHint')}
          max={latestAdultBirthDate(new Date())}
          errors={fields.dateOfBirth.errors}
          {...getInputProps(fields.dateOfBirth, { type: 'date' })}
        />
        <div className="space-y-1">
          <label htmlFor={fields.gender.id} className="block text-sm font-medium text-slate-800">
            {t('completeProfile.gender')}
          </label>
          <select
            {...getSelectProps(fields.gender)}
            aria-describedby={genderError ? `${fields.gender.id}-error` : undefined}
            className="w-full rounded-md border border-slate-300 bg-white px-3 py-2 shadow-sm focus:border-amber-500 focus:outline-none focus:ring-2 focus:ring-amber-200"
          >
            <option value="">{t('completeProfile.chooseGender')}</option>
            {genders.map((gender) => (
              <option key={gender} value={gender}>
                {t(`completeProfile.genders.${gender}`)}
              </option>
            ))}
          </select>
          {genderError ? (
            <p id={`${fields.gender.id}-error`} role="alert" className="text-sm text-red-700">
              {t(genderError)}
            </p>
          ) : null}
        </div>
      </div>
      <p className="text-sm text-slate-600">
        {t('profile.registered')}: {formatDate(user.createdAt)}
      </p>
      <div className="flex flex-wrap justify-end gap-2">
        <Link
          to="/profile"
          preventScrollReset
          className="rounded-md border border-slate-300 px-4 py-2 font-semibold hover:bg-slate-50"
        >
          {t('profile.cancel')}
        </Link>
        <button
          type="submit"
          disabled={saving}
          className="flex items-center gap-2 rounded-md bg-amber-700 px-4 py-2 font-semibold text-white hover:bg-amber-800 disabled:opacity-70"
        >
          {saving ? <Loader2 aria-hidden className="h-4 w-4 animate-spin" /> : null}
          {t('profile.save')}
        </button>
      </div>
    </Form>
  )
}

function ReadOnly({ label, value }: { label: string; value: string }) {
  return (
    <div className="space-y-1">
      <p className="text-sm font-medium text-slate-800">{label}</p>
      <p className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-slate-800">
        {value}
      </p>
    </div>
  )
}

function StatsCard({ stats }: { stats: Account['stats'] }) {
  const { t } = useTranslation()
  const items: Array<[string, string]> = [
    [t('profile.stats.activeBids'), String(stats.activeBids)],
    [t('profile.stats.activePrebids'), String(stats.activePrebids)],
    [t('profile.stats.wonAuctions'), String(stats.wonAuctions)],
    [t('profile.stats.totalSpent'), t('profile.bidsCount', { count: stats.totalSpent })],
    [t('profile.stats.successRate'), `${stats.successRate}%`],
  ]
  return (
    <section
      aria-labelledby="stats-title"
      className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id="stats-title" className="mb-4 text-xl font-semibold">
        {t('profile.stats.title')}
      </h2>
      <dl className="grid grid-cols-2 gap-3">
        {items.map(([label, value]) => (
          <div key={label} className="rounded-lg bg-slate-50 p-3">
            <dt className="text-xs text-slate-600">{label}</dt>
            <dd className="text-lg font-bold">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-3 text-xs text-slate-600">{t('profile.stats.successRateHint')}</p>
    </section>
  )
}

function WonAuctions({ won }: { won: Account['won'] }) {
  const { t } = useTranslation()
  const money = useFormatMoney()
  return (
    <section aria-labelledby="won-title">
      <h2 id="won-title" className="mb-3 text-xl font-semibold">
        {t('profile.won.title')}
      </h2>
      {won.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 p-6 text-center text-slate-600">
          {t('profile.won.empty')}
        </p>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {won.map((auction) => (
            <li
              key={auction.id}
              className="overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm"
            >
              {auction.imageUrl ? (
                <img
                  src={auction.imageUrl}
                  alt=""
                  loading="lazy"
                  className="aspect-[4/3] w-full object-cover"
                />
              ) : (
                <div className="flex aspect-[4/3] items-center justify-center bg-slate-100 text-slate-400">
                  <ImageOff aria-hidden className="h-8 w-8" />
                </div>
              )}
              <div className="space-y-1 p-3">
                <h3 className="font-semibold">{auction.title}</h3>
                {auction.endTime ? (
                  <p className="text-sm text-slate-600">
                    {t('profile.won.date', { date: formatDate(auction.endTime) })}
                  </p>
                ) : null}
                <p className="text-sm">
                  {t('profile.won.price')}:{' '}
                  <strong className="text-emerald-700">{money(auction.finalPrice)}</strong>
                </p>
                <Link
                  to={`/auction/${auction.slug}`}
                  className="inline-block pt-1 text-sm font-semibold text-amber-800 underline"
                >
                  {t('profile.won.view')}
                </Link>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

function RecentBids({ bids }: { bids: Account['recentBids'] }) {
  const { t } = useTranslation()
  const money = useFormatMoney()
  return (
    <section aria-labelledby="recent-title">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id="recent-title" className="text-xl font-semibold">
          {t('profile.recent.title')}
        </h2>
        <Link to="/bid-history" className="text-sm font-semibold text-amber-800 underline">
          {t('profile.recent.all')}
        </Link>
      </div>
      {bids.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 p-6 text-center text-slate-600">
          {t('profile.recent.empty')}
        </p>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
          {bids.map((bid) => (
            <li key={bid.id} className="flex flex-wrap items-center justify-between gap-2 p-3">
              <div className="min-w-0">
                <Link
                  to={`/auction/${bid.auction.slug}`}
                  className="font-medium text-slate-900 underline-offset-2 hover:underline"
                >
                  {t('profile.recent.auction', { id: bid.auction.displayId.slice(-4) })}
                </Link>
                <p className="truncate text-sm text-slate-600">{bid.auction.title}</p>
              </div>
              <div className="text-right">
                <p className="font-semibold">{money(bid.amount)}</p>
                <p className="text-xs text-slate-600">{formatDateTime(bid.createdAt)}</p>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
