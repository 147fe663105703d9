import { type LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData, useLocation } from '@remix-run/react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { DetailsDialog } from '~/components/admin/url-dialog.tsx'
import { UserActivity } from '~/components/admin/users-activity.tsx'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { userActivity } from '~/models/admin-users.server.ts'
import { getUserView } from '~/models/user-view.server.ts'
import { requireAdmin } from '~/services/guards.server.ts'
import { listHref } from '~/utils/admin-lists.ts'
import { nullIfRefused } from '~/utils/domain-error.ts'

// /admin/users/ID/activity: a user's bids, wins and payments, in a dialog over the list.

const NS = ['admin-users', 'admin'] as const
export const handle = { i18n: [...NS] }

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireAdmin(request)
  const id = params.id ?? ''
  const [user, activity] = await Promise.all([
    getUserView(context.engine, id),
    // A user that is gone is the dialog's message, not an error page.
    nullIfRefused(userActivity(id)),
  ])
  return { username: user?.username ?? null, activity }
}

export default function UserActivityRoute() {
  const { username, activity } = useLoaderData<typeof loader>()
  const { search } = useLocation()
  const { t } = useTranslation(NS)
  return (
    <DetailsDialog
      closeTo={listHref('users', search)}
      title={t('activity.title', { username: username ?? '' })}
      failed={t('activity.failed')}
    >
      {activity ? <UserActivity activity={activity} /> : null}
    </DetailsDialog>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
