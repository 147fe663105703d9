import { useTranslation } from '~/i18n/use-translation.ts'
import {
  BidCost,
  Figure,
  NextBidFigure,
  PriceFigure,
  type AuctionStateProps,
} from '~/components/auction/auction-figures.tsx'
import { BidPanel } from '~/components/auction/bid-panel.tsx'
import { formatCountdown } from '~/utils/dates.ts'
import { useHydrated, useOptionalUser } from '~/utils/hooks.ts'

/** A live auction's figures: its price, the timer (red in its last seconds), the next bid. */
export function LiveFigures({ auction, msLeft }: AuctionStateProps) {
  const { t } = useTranslation()
  return (
    <>
      <PriceFigure label={t('auction.currentPrice')} auction={auction} />
      <Figure
        label={t('auction.timeLeft')}
        className={`text-3xl font-black tabular-nums ${msLeft !== null && msLeft < 4000 ? 'text-red-600' : ''}`}
      >
        <span role="timer">{formatCountdown(msLeft ?? 0)}</span>
      </Figure>
      <NextBidFigure auction={auction} />
    </>
  )
}

/**
 * The bid button, disabled while the person holds the last bid, its cost and, until the page
 * has hydrated (so without JavaScript), a word that the page refreshes itself.
 */
export function LiveActions({ auction }: AuctionStateProps) {
  const { t } = useTranslation()
  const user = useOptionalUser()
  const hydrated = useHydrated()
  const leading = auction.lastBidderId === user?.id && !auction.lastBidderIsBot
  return (
    <>
      <BidPanel
        auctionId={auction.id}
        intent="bid"
        disabledReason={leading ? t('auction.leading') : null}
      />
      <BidCost auction={auction} />
      {hydrated ? null : (
        <p className="mt-1 text-center text-xs text-slate-500">{t('auction.refreshHint')}</p>
      )}
    </>
  )
}
