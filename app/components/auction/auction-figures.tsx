import type { ReactNode } from 'react'
import { useTranslation } from '~/i18n/use-translation.ts'
import type { BuyNowOffer } from '~/models/order.server.ts'
import { useFormatMoney } from '~/utils/hooks.ts'
import type { LiveView } from '~/utils/use-live-auction.ts'

/**
 * What the auction page hands to the part of it that depends on the auction's state
 * (auction-upcoming.tsx, auction-live.tsx, auction-finished.tsx).
 */
export type AuctionStateProps = {
  /** The auction as its live updates leave it. */
  auction: LiveView
  /** Time left on a live auction's timer (monotonic clock), null when it has none. */
  msLeft: number | null
  /** The signed-in person holds a prebid on it. */
  hasPrebid: boolean
  /** Buy It Now on a finished auction, for this visitor. */
  buyNow: BuyNowOffer | null
}

/** One figure of the auction card: a term of its `<dl>` and its value. */
export function Figure({
  label,
  className,
  polite,
  children,
}: {
  label: string
  className: string
  /** A value that changes while the page is open, read out by screen readers when it does. */
  polite?: boolean
  children: ReactNode
}) {
  return (
    <div>
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className={className} aria-live={polite ? 'polite' : undefined}>
        {children}
      </dd>
    </div>
  )
}

/** The price: the current one while the auction runs, the winning bid once it has ended. */
export function PriceFigure({ label, auction }: { label: string; auction: LiveView }) {
  const formatMoney = useFormatMoney()
  return (
    <Figure label={label} className="text-3xl font-black tabular-nums text-amber-700" polite>
      {formatMoney(auction.finalPrice ?? auction.currentPrice)}
    </Figure>
  )
}

/** The price after the next bid (upcoming and live auctions). */
export function NextBidFigure({ auction }: { auction: LiveView }) {
  const { t } = useTranslation()
  const formatMoney = useFormatMoney()
  return (
    <Figure label={t('auction.nextBid')} className="font-semibold tabular-nums">
      {formatMoney(auction.currentPrice + auction.bidIncrement)}
    </Figure>
  )
}

/** What one bid costs and adds, under the bid and prebid buttons. */
export function BidCost({ auction }: { auction: LiveView }) {
  const { t } = useTranslation()
  const formatMoney = useFormatMoney()
  return (
    <p className="mt-2 text-center text-xs text-slate-600">
      {t('auction.bidCost', { step: formatMoney(auction.bidIncrement) })}
    </p>
  )
}
