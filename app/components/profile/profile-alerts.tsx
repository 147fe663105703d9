import { Form } from '@remix-run/react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { WatchToggle } from '~/components/auction/watch-toggle.tsx'
import type { ProfileAlerts as Data } from '~/types/profile-alerts.ts'
import { formatDateTime } from '~/utils/dates.ts'
import { useIsPending } from '~/utils/use-is-pending.ts'
import { EmptyNote } from '~/components/ui/panel.tsx'
import { Pager } from '~/components/pager.tsx'
import { Table } from '~/components/ui/table.tsx'

const HOURS = Array.from({ length: 24 }, (_, hour) => hour)
const box = 'rounded-xl border border-slate-200 bg-white p-5 shadow-sm'

/** The profile's watched auctions and alert choices (docs/rules.md#watchlist-and-alerts). */
export function ProfileAlerts({ data }: { data: Data }) {
  return (
    <>
      <Watchlist auctions={data.watchlist} page={data.watchPage} totalPages={data.watchPages} />
      <AlertChoices choices={data.choices} channels={data.channels} kinds={data.kinds} />
    </>
  )
}

/** The watched auctions, 20 a page, paged by the address (`?watchPage=`) without JavaScript. */
function Watchlist({
  auctions,
  page,
  totalPages,
}: {
  auctions: Data['watchlist']
  page: number
  totalPages: number
}) {
  const { t } = useTranslation(['watch', 'common'])
  return (
    <section aria-labelledby="watchlist-title" id="watchlist">
      <h2 id="watchlist-title" className="mb-3 text-xl font-semibold">
        {t('watch:listTitle')}
      </h2>
      {auctions.length === 0 ? (
        <EmptyNote look="page">{t('watch:listEmpty')}</EmptyNote>
      ) : (
        <ul className={`${box} divide-y divide-slate-100 !p-0`}>
          {auctions.map((auction) => (
            <li key={auction.id} className="flex flex-wrap items-center gap-3 px-5 py-3">
              <a href={`/auction/${auction.slug}`} className="font-semibold hover:underline">
                {auction.title}
              </a>
              <span className="text-sm text-slate-600">
                {t(`common:auction.status.${auction.status}`)}
                {auction.status === 'upcoming' ? ` · ${formatDateTime(auction.startTime)}` : ''}
              </span>
              <WatchToggle auctionId={auction.id} watching className="ml-auto" />
            </li>
          ))}
        </ul>
      )}
      {totalPages > 1 ? (
        <div className="mt-3">
          <Pager
            page={page}
            totalPages={totalPages}
            href={(n) => (n === 1 ? '/profile#watchlist' : `/profile?watchPage=${n}#watchlist`)}
          />
        </div>
      ) : null}
    </section>
  )
}

function AlertChoices({ choices, channels, kinds }: Pick<Data, 'choices' | 'channels' | 'kinds'>) {
  const { t } = useTranslation('alerts')
  const pending = useIsPending({ formData: { intent: 'alerts' }, state: 'submitting' })
  const hourSelect = (name: 'quietFrom' | 'quietTo', label: string, value: number | null) => (
    <label className="flex items-center gap-2">
      {label}
      <select
        name={name}
        defaultValue={value ?? ''}
        className="rounded-md border border-slate-300 px-2 py-1"
      >
        <option value="">{t('profile.quietNone')}</option>
        {HOURS.map((hour) => (
          <option key={hour} value={hour}>
            {`${String(hour).padStart(2, '0')}:00`}
          </option>
        ))}
      </select>
    </label>
  )
  return (
    <section aria-labelledby="alerts-title" id="alerts" className={box}>
      <h2 id="alerts-title" className="mb-1 text-xl font-semibold">
        {t('profile.title')}
      </h2>
      <p className="mb-4 text-sm text-slate-600">{t('profile.hint')}</p>
      <Form method="post" action="/profile" preventScrollReset className="space-y-4">
        <input type="hidden" name="intent" value="alerts" />
        {channels.length === 0 ? (
          <p className="text-sm text-slate-600">{t('profile.noChannels')}</p>
        ) : (
          <Table
            columns={[
              t('profile.kind'),
              ...channels.map((channel) => ({ label: t(`channels.${channel}`), centred: true })),
            ]}
            width="fit"
            look="grid"
          >
            {kinds.map((kind) => (
              <tr key={kind} className="border-t border-slate-100">
                <th scope="row" className="py-1.5 font-normal">
                  {t(`kinds.${kind}`)}
                </th>
                {channels.map((channel) => (
                  <td key={channel} className="text-center">
                    <input
                      type="checkbox"
                      name="on"
                      value={`${kind}:${channel}`}
                      defaultChecked={!choices.off.includes(`${kind}:${channel}`)}
                      aria-label={`${t(`kinds.${kind}`)}: ${t(`channels.${channel}`)}`}
                    />
                  </td>
                ))}
              </tr>
            ))}
          </Table>
        )}
        <fieldset className="space-y-2">
          <legend className="font-semibold">{t('profile.quietTitle')}</legend>
          <p className="text-sm text-slate-600">{t('profile.quietHint')}</p>
          <div className="flex flex-wrap gap-4">
            {hourSelect('quietFrom', t('profile.quietFrom'), choices.quietFrom)}
            {hourSelect('quietTo', t('profile.quietTo'), choices.quietTo)}
          </div>
        </fieldset>
        <button
          type="submit"
          disabled={pending}
          className="rounded-md bg-slate-900 px-4 py-2 font-semibold text-white hover:bg-slate-700 disabled:opacity-60"
        >
          {t('profile.save')}
        </button>
      </Form>
    </section>
  )
}
