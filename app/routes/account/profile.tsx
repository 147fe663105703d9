import { parseWithZod } from '@conform-to/zod'
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { titleMeta } from '~/utils/meta.ts'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { i18nRoute } from '~/utils/i18n-route.ts'
import { useTranslation } from '~/i18n/use-translation.ts'
import { LoginRequired } from '~/components/login-required.tsx'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { MyOrders, ORDERS_NS } from '~/components/orders/my-orders.tsx'
import { LogoutEverywhere } from '~/components/profile/logout-everywhere.tsx'
import { ProfileForm } from '~/components/profile/profile-form.tsx'
import { ProfileView } from '~/components/profile/profile-view.tsx'
import { PUSH_NS, PushNotifications } from '~/components/profile/push-notifications.tsx'
import { RecentBids } from '~/components/profile/recent-bids.tsx'
import { StatsCard } from '~/components/profile/stats-card.tsx'
import { BiddingLimits, type LimitsErrors } from '~/components/profile/bidding-limits.tsx'
import { getLimits, handleLimitsForm } from '~/services/limits.server.ts'
import { TELEGRAM_NS, TelegramSection } from '~/components/profile/telegram-section.tsx'
import { profileTelegram } from '~/services/telegram/profile.server.ts'
import { WonAuctions } from '~/components/profile/won-auctions.tsx'
import { ProfileAlerts } from '~/components/profile/profile-alerts.tsx'
import { buttonClass } from '~/components/ui/button.tsx'
import * as alerts from '~/services/alerts/profile.server.ts'
import {
  getUserBids,
  getUserStats,
  getWonAuctions,
  RECENT_BIDS,
  updateProfile,
} from '~/models/account.server.ts'
import { listUserOrders } from '~/models/order.server.ts'
import { deviceKeys } from '~/models/push-subscription.server.ts'
import { getUserView } from '~/models/user-view.server.ts'
import { loginView, requireUser, withUser } from '~/services/guards.server.ts'
import { getFixedT } from '~/i18n/i18next.server.ts'
import { handleDeliveryForm } from '~/services/order-forms.server.ts'
import { pushProfile } from '~/services/push/push.server.ts'
import { refuseForm } from '~/services/refuse-form.server.ts'
import { redirectWithToast } from '~/services/toast.server.ts'
import { forVisitors } from '~/models/house-bids.ts'
import { getSettings } from '~/models/settings.server.ts'
import { profileSchema } from '~/validation/user.ts'
import { readForm } from '~/utils/form.server.ts'
import { DomainError } from '~/utils/domain-error.ts'
import { pageParam } from '~/utils/http.ts'

const i18n = i18nRoute([ORDERS_NS, PUSH_NS, TELEGRAM_NS, 'watch', 'alerts'])
export const handle = i18n.handle
export const clientLoader = i18n.clientLoader

export async function loader({ request, context }: LoaderFunctionArgs) {
  const t = await getFixedT(request)
  const title = t('profile.title')
  const signedOut = () => loginView({ account: null, title } as const)
  return withUser(request, signedOut, async (current) => {
    const [user, stats, won, recentBids, orders, { discloseHouseBids }, push, telegram, limits] =
      await Promise.all([
        getUserView(context.engine, current.id),
        getUserStats(current.id),
        getWonAuctions(current.id),
        getUserBids(current.id, { limit: RECENT_BIDS }),
        listUserOrders(current.id),
        getSettings(),
        pushProfile(current.id),
        profileTelegram(current.id),
        getLimits(context.engine, current.id),
      ])
    if (!user) return signedOut()
    const params = new URL(request.url).searchParams
    const watchPage = pageParam(params.get('watchPage'))
    const alerting = await alerts.getProfileAlerts(context.engine, current.id, watchPage)
    const pushKeys = push ? await deviceKeys(current.id) : []
    const editing = params.get('edit') === '1'
    const shown = forVisitors({ bids: recentBids }, discloseHouseBids).bids
    return {
      account: {
        user,
        stats,
        won,
        recentBids: shown,
        orders,
        editing,
        push,
        pushKeys,
        telegram,
        alerting,
        limits,
      },
      title,
    }
  })
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, { redirectTo: '/profile' })
  const t = await getFixedT(request)
  const form = await readForm(request)
  if (form.get('intent') === 'delivery') return handleDeliveryForm(request, user.id, form)
  if (form.get('intent') === 'alerts') return alerts.handleAlertChoicesForm(request, user.id, form)
  if (form.get('intent') === 'limits') return handleLimitsForm(context.engine, user.id, form, t)
  const submission = parseWithZod(form, { schema: profileSchema })
  const failed = (status: number, result: ReturnType<typeof submission.reply>) =>
    refuseForm(result, { status, title: t('profile.saveFailed'), text: (key) => t(key) })
  if (submission.status !== 'success') return failed(400, submission.reply())
  try {
    await updateProfile(user.id, submission.value)
  } catch (error) {
    if (!(error instanceof DomainError) || !error.field) throw error
    return failed(error.status, submission.reply({ fieldErrors: { [error.field]: [error.key] } }))
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
  const editing = account.editing || (Boolean(failed?.result) && !limitsErrors(failed))
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
                className={buttonClass({ variant: 'outline', size: 'compact' })}
              >
                {t('profile.edit')}
              </Link>
            )}
          </div>
          {editing ? (
            <ProfileForm user={user} lastResult={failed?.result} />
          ) : (
            <ProfileView user={user} />
          )}
        </section>
        <StatsCard stats={stats} />
      </div>
      <TelegramSection telegram={account.telegram} />
      <MyOrders orders={account.orders} defaultPhone={user.phone} />
      <ProfileAlerts data={account.alerting} />
      <BiddingLimits limits={account.limits} errors={limitsErrors(failed)} />
      <WonAuctions won={won} />
      <RecentBids bids={recentBids} />
      {account.push ? <PushNotifications {...account.push} deviceKeys={account.pushKeys} /> : null}
      <LogoutEverywhere />
    </div>
  )
}

/** A refused limits form's errors (its fields are the limits form's own). */
function limitsErrors(failed: unknown): LimitsErrors | undefined {
  const refused = failed as { form?: string; result?: { error?: LimitsErrors } } | undefined
  return refused?.form === 'limits' ? refused.result?.error : undefined
}

export const meta = titleMeta

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
