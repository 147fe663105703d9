import { useTranslation } from '~/i18n/use-translation.ts'
import type { UserView } from '~/models/user-view.server.ts'
import { formatDate } from '~/utils/dates.ts'

/** The profile's personal data, read only (the page without ?edit=1). */
export function ProfileView({ user }: { user: UserView }) {
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
