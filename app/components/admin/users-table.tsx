import { useTranslation } from '~/i18n/use-translation.ts'
import { RowActions, Table } from '~/components/ui/table.tsx'
import type { UserView } from '~/models/user-view.server.ts'
import { formatDate } from '~/utils/dates.ts'

/** A user as the admin list shows it: the user's view without birth date and gender, with the IP. */
export type UserRow = Omit<UserView, 'dateOfBirth' | 'gender'> & { ipAddress: string | null }

/** docs/rules.md#admin-users: one row per user with its edit, activity and delete links. */
export function UsersTable({
  users,
  adminId,
  caption,
  dialogHref,
}: {
  users: UserRow[]
  adminId: string
  caption: string
  /** A user's dialog route (page and search kept). */
  dialogHref: (id: string, dialog: 'edit' | 'activity' | 'delete') => string
}) {
  const { t } = useTranslation(['admin-users', 'admin'])
  const columns = [
    t('table.user'),
    t('table.contacts'),
    t('table.ip'),
    t('table.balance'),
    t('table.stats'),
    t('table.role'),
    t('table.registered'),
    t('table.actions'),
  ]
  return (
    <Table caption={caption} columns={columns}>
      {users.map((user) => {
        const name = [user.firstName, user.lastName].filter(Boolean).join(' ')
        const self = user.id === adminId
        return (
          <tr key={user.id} className="align-top">
            <th scope="row" className="px-3 py-3 font-normal">
              <span className="block font-semibold text-slate-900">
                {user.username}
                {self ? (
                  <span className="ml-1 text-xs font-normal text-slate-600">
                    ({t('table.you')})
                  </span>
                ) : null}
              </span>
              <span className={name ? 'text-slate-700' : 'italic text-slate-600'}>
                {name || t('table.noName')}
              </span>
            </th>
            <td className="px-3 py-3">
              <span className="block break-all">{user.email}</span>
              <span className={user.phone ? 'text-slate-700' : 'italic text-slate-600'}>
                {user.phone ?? t('table.noPhone')}
              </span>
            </td>
            <td className="px-3 py-3">
              {user.ipAddress ? (
                <span className="font-mono text-xs">{user.ipAddress}</span>
              ) : (
                <span className="italic text-slate-600">{t('table.notRecorded')}</span>
              )}
            </td>
            <td className="px-3 py-3 font-semibold tabular-nums">{user.bidBalance}</td>
            <td className="whitespace-nowrap px-3 py-3 tabular-nums">
              {t('table.statsValue', {
                bids: user.totalBids,
                won: user.wonAuctions,
                spent: user.totalSpent,
              })}
            </td>
            <td className="px-3 py-3">
              <span
                className={`inline-block rounded-full px-2 py-0.5 text-xs font-bold ${user.role === 'admin' ? 'bg-amber-100 text-amber-900' : 'bg-slate-100 text-slate-800'}`}
              >
                {t(`roles.${user.role}`)}
              </span>
            </td>
            <td className="whitespace-nowrap px-3 py-3">{formatDate(user.createdAt)}</td>
            <RowActions
              actions={self ? ['edit', 'activity'] : ['edit', 'activity', 'delete']}
              href={(action) => dialogHref(user.id, action)}
              text={(action) => t(`actions.${action}`)}
              label={(action) => t(`actions.${action}User`, { username: user.username })}
            />
          </tr>
        )
      })}
    </Table>
  )
}
