import { Form } from '@remix-run/react'
import { Bot } from 'lucide-react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { DashboardCard } from '~/components/admin/dashboard-card.tsx'

import { controlClass } from '~/components/ui/field.tsx'
import { Table } from '~/components/ui/table.tsx'
import { Button } from '~/components/ui/button.tsx'

// The dashboard's bots-in-auction card: an auction chosen from those not over, and the bots
// bidding in it with their bids against their limits (the same figures as
// GET /api/admin/bots/auction-status). The choice is a GET form (`?botsAuction=`), so it works
// without JavaScript and the dashboard's other pages stay as they were.

type Choice = { id: string; displayId: string; title: string; status: string }
type BotRow = {
  botId: string
  username: string
  name: string
  isActive: boolean
  currentBids: number
  bidLimit: number
}

const selectClass = `${controlClass} min-w-0`

export function BotsInAuctionCard({
  card,
  kept,
}: {
  card: { auctions: Choice[]; selected: string | null; bots: BotRow[] }
  /** The dashboard's other query parameters, carried along by the form. */
  kept: Record<string, string>
}) {
  const { t } = useTranslation(['admin-dashboard', 'common'])
  const chosen = card.auctions.find((auction) => auction.id === card.selected)
  return (
    <DashboardCard
      id="bots-in-auction-heading"
      heading={t('botsInAuction.heading')}
      icon={<Bot aria-hidden className="h-5 w-5 text-amber-700" />}
    >
      {card.auctions.length === 0 ? (
        <p className="text-slate-600">{t('botsInAuction.noAuctions')}</p>
      ) : (
        <Form method="get" action="/admin" preventScrollReset className="space-y-2">
          {Object.entries(kept).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <label htmlFor="bots-auction" className="block font-medium">
            {t('botsInAuction.auction')}
          </label>
          <div className="flex flex-wrap gap-2 sm:flex-nowrap">
            <select
              id="bots-auction"
              name="botsAuction"
              defaultValue={card.selected ?? undefined}
              key={card.selected}
              className={selectClass}
            >
              {card.auctions.map((auction) => (
                <option key={auction.id} value={auction.id}>
                  {`${auction.displayId} · ${auction.title} (${t(`common:auction.status.${auction.status}`)})`}
                </option>
              ))}
            </select>
            <Button>{t('botsInAuction.show')}</Button>
          </div>
        </Form>
      )}
      {chosen ? (
        card.bots.length === 0 ? (
          <p className="text-slate-600">{t('botsInAuction.noBots', { title: chosen.title })}</p>
        ) : (
          <Table
            caption={t('botsInAuction.caption', { title: chosen.title })}
            columns={[t('bots.username'), t('botsInAuction.bids'), t('botsInAuction.limit')]}
            width="xs"
            look="card"
          >
            {card.bots.map((bot) => (
              <tr key={bot.botId}>
                <th scope="row" className="py-2 pr-3 font-medium">
                  {bot.username}
                  <span className="block text-xs font-normal text-slate-600">{bot.name}</span>
                  {bot.isActive ? null : (
                    <span className="rounded bg-slate-200 px-1.5 py-0.5 text-xs font-normal">
                      {t('bots.inactive')}
                    </span>
                  )}
                </th>
                <td className="py-2 pr-3 tabular-nums">{bot.currentBids}</td>
                <td className="py-2 tabular-nums">
                  {bot.bidLimit === 0 ? t('botsInAuction.unlimited') : bot.bidLimit}
                </td>
              </tr>
            ))}
          </Table>
        )
      ) : null}
    </DashboardCard>
  )
}
