import { ImageOff } from 'lucide-react'
import { useTranslation } from '~/i18n/use-translation.ts'
import type { AuctionName } from '~/models/auction-name.ts'
import { RowActions, Table } from '~/components/ui/table.tsx'
import { formatDateTime } from '~/utils/dates.ts'
import { useFormatMoney } from '~/utils/hooks.ts'
import { ProductImage } from '~/components/product-image.tsx'
import { THUMBNAIL_IMAGE } from '~/utils/product-image.ts'

export type FinishedRow = AuctionName & {
  retailPrice: number
  finalPrice: number
  endTime: string | null
  totalBids: number
  winner: {
    username: string
    firstName: string | null
    lastName: string | null
    role: string
  } | null
  winnerBotName: string | null
  savings: number
  savingsPercent: number
}

const percent = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 2 })

/** docs/rules.md#admin-finished-auctions: one row per auction, newest first. */
export function FinishedTable({
  auctions,
  caption,
  dialogHref,
}: {
  auctions: FinishedRow[]
  caption: string
  /** An auction's dialog route (the page kept). */
  dialogHref: (id: string, dialog: 'stats' | 'delete') => string
}) {
  const { t } = useTranslation(['admin-finished', 'admin'])
  const money = useFormatMoney()
  const columns = [
    { label: t('table.image'), hidden: true },
    t('table.auction'),
    t('table.lot'),
    t('table.price'),
    t('table.winner'),
    t('table.finished'),
    t('table.savings'),
    t('table.actions'),
  ]
  return (
    <Table caption={caption} columns={columns}>
      {auctions.map((auction) => (
        <tr key={auction.id} className="align-top">
          <td className="px-3 py-3">
            {auction.imageUrl ? (
              <ProductImage
                url={auction.imageUrl}
                alt=""
                {...THUMBNAIL_IMAGE}
                className="h-14 w-14 rounded-md border border-slate-200 object-cover"
              />
            ) : (
              <span className="flex h-14 w-14 items-center justify-center rounded-md border border-dashed border-slate-300 bg-slate-50 text-slate-500">
                <ImageOff aria-hidden className="h-5 w-5" />
                <span className="sr-only">{t('table.noImage')}</span>
              </span>
            )}
          </td>
          <th scope="row" className="max-w-xs px-3 py-3 font-normal">
            <span className="block font-semibold text-slate-900">{auction.title}</span>
            {auction.description ? (
              <span className="line-clamp-2 text-slate-700" title={auction.description}>
                {auction.description}
              </span>
            ) : null}
          </th>
          <td className="whitespace-nowrap px-3 py-3 font-mono text-slate-800">
            {auction.displayId}
          </td>
          <td className="whitespace-nowrap px-3 py-3">
            <span className="block font-semibold tabular-nums text-slate-900">
              {money(auction.finalPrice)}
            </span>
            <span className="text-slate-600">
              <span className="sr-only">{t('table.retail')}: </span>
              <s className="tabular-nums">{money(auction.retailPrice)}</s>
            </span>
          </td>
          <td className="px-3 py-3">
            <Winner row={auction} />
          </td>
          <td className="whitespace-nowrap px-3 py-3 tabular-nums text-slate-800">
            {auction.endTime ? formatDateTime(auction.endTime) : t('table.notRecorded')}
          </td>
          <td className="whitespace-nowrap px-3 py-3">
            <span className="block font-semibold tabular-nums text-emerald-800">
              {money(auction.savings)}
            </span>
            <span className="tabular-nums text-slate-700">
              {t('table.savingsPercent', { percent: percent.format(auction.savingsPercent) })}
            </span>
          </td>
          <RowActions
            actions={['view', 'stats', 'delete']}
            href={(action) =>
              action === 'view' ? `/auction/${auction.slug}` : dialogHref(auction.id, action)
            }
            text={(action) => t(`table.${action}`)}
            label={(action) => t(`table.${action}Label`, { title: auction.title })}
          />
        </tr>
      ))}
    </Table>
  )
}

/** A bot's win is a house bid (docs/rules.md#auction-lifecycle); no bids at all means no winner. */
function Winner({ row }: { row: FinishedRow }) {
  const { t } = useTranslation(['admin-finished', 'common'])
  if (row.winnerBotName) {
    return (
      <span className="text-slate-800">
        {t('common:auction.houseWinner', { name: row.winnerBotName })}
      </span>
    )
  }
  if (!row.winner) {
    return (
      <span className="italic text-slate-600">
        {t('table.unknown')}
        {row.totalBids === 0 ? (
          <span className="block text-xs not-italic">{t('table.noWinner')}</span>
        ) : null}
      </span>
    )
  }
  return <span className="font-semibold text-slate-900">{row.winner.username}</span>
}
