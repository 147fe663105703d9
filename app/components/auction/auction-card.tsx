import { Link } from '@remix-run/react'
import { ImageOff } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { BidPanel } from '~/components/auction/bid-panel.tsx'
import { StatusBadge } from '~/components/auction/status-badge.tsx'
import type { AuctionView } from '~/models/auction.server.ts'
import { formatCountdown, formatDate, formatDateTime } from '~/utils/dates.ts'
import { useFormatMoney, useOptionalUser } from '~/utils/hooks.ts'
import { useLiveAuction } from '~/utils/use-live-auction.ts'

/** A card for the home page and the auctions list; live cards follow their room in real time. */
export function AuctionCard({
  auction: initial,
  prebidIds,
}: {
  auction: AuctionView
  prebidIds?: string[]
}) {
  const { t } = useTranslation()
  const formatMoney = useFormatMoney()
  const user = useOptionalUser()
  const { auction, msLeft } = useLiveAuction(initial)
  const href = `/auction/${auction.slug}`
  const leading = Boolean(user && auction.lastBidderId === user.id && !auction.lastBidderIsBot)
  return (
    <article className="flex flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm">
      <Link
        to={href}
        className="flex aspect-[16/10] items-center justify-center bg-slate-100"
        tabIndex={-1}
        aria-hidden
      >
        {auction.imageUrl ? (
          <img
            src={auction.imageUrl}
            alt=""
            loading="lazy"
            className="h-full w-full object-contain"
          />
        ) : (
          <ImageOff className="h-10 w-10 text-slate-400" />
        )}
      </Link>
      <div className="flex flex-1 flex-col gap-2 p-4">
        <div className="flex items-center justify-between gap-2">
          <StatusBadge status={auction.status} />
          <span className="font-mono text-xs text-slate-600">{auction.displayId}</span>
        </div>
        <h3 className="font-semibold leading-snug">
          <Link to={href} className="hover:underline">
            {auction.title}
          </Link>
        </h3>
        <p className="text-2xl font-black tabular-nums text-amber-700">
          {formatMoney(auction.finalPrice ?? auction.currentPrice)}
        </p>
        <p className="text-sm text-slate-700">
          {auction.status === 'live' ? (
            <span className="font-bold tabular-nums" role="timer">
              {formatCountdown(msLeft ?? 0)}
              {auction.lastBidder ? (
                <span className="ml-2 font-normal text-slate-600">· {auction.lastBidder}</span>
              ) : null}
            </span>
          ) : auction.status === 'upcoming' ? (
            t('auction.startsAt', { date: formatDateTime(auction.startTime) })
          ) : (
            <>
              {t('home.winner', {
                name: auction.winner?.username ?? auction.winnerBotName ?? t('home.unknownWinner'),
              })}
              {auction.endTime ? (
                <span className="ml-1 text-slate-500">· {formatDate(auction.endTime)}</span>
              ) : null}
            </>
          )}
        </p>
        <p className="text-xs text-slate-500">
          {t('home.retail', { price: formatMoney(auction.retailPrice) })}
        </p>
        <div className="mt-auto pt-2">
          {auction.status === 'live' ? (
            <BidPanel
              auctionId={auction.id}
              intent="bid"
              disabledReason={leading ? t('auction.leading') : null}
              className="!py-2 !text-base"
            />
          ) : auction.status === 'upcoming' ? (
            <BidPanel
              auctionId={auction.id}
              intent="prebid"
              disabledReason={prebidIds?.includes(auction.id) ? t('auction.prebidDone') : null}
              className="!py-2 !text-base"
            />
          ) : null}
        </div>
      </div>
    </article>
  )
}
