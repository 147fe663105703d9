import { useTranslation } from '~/i18n/use-translation.ts'
import {
  BidCost,
  Figure,
  NextBidFigure,
  PriceFigure,
  type AuctionStateProps,
} from '~/components/auction/auction-figures.tsx'
import { BidPanel } from '~/components/auction/bid-panel.tsx'
import { formatCountdown, formatDateTime } from '~/utils/dates.ts'
import { useCountdown } from '~/utils/use-countdown.ts'

/** An upcoming auction's figures: its price, the time to its start, the next bid. */
export function UpcomingFigures({ auction }: AuctionStateProps) {
  const { t } = useTranslation()
  return (
    <>
      <PriceFigure label={t('auction.currentPrice')} auction={auction} />
      <StartCountdown startTime={auction.startTime} startsIn={auction.startsIn} />
      <NextBidFigure auction={auction} />
    </>
  )
}

/** The prebid button, disabled once the person holds a prebid, and what a prebid does. */
export function UpcomingActions({ auction, hasPrebid }: AuctionStateProps) {
  const { t } = useTranslation()
  return (
    <>
      <BidPanel
        auctionId={auction.id}
        intent="prebid"
        disabledReason={hasPrebid ? t('auction.prebidDone') : null}
      />
      <p className="mt-2 text-center text-sm text-slate-600">{t('auction.notifyAtStart')}</p>
      <BidCost auction={auction} />
    </>
  )
}

/**
 * Time to the start, counted down locally every second (docs/rules.md#auction-page) from the
 * server's figure with the monotonic clock; the start's date and time until then.
 */
function StartCountdown({ startTime, startsIn }: { startTime: string; startsIn: number | null }) {
  const { t } = useTranslation()
  const left = useCountdown(startsIn)
  return (
    <Figure label={t('auction.startsIn')} className="text-2xl font-black tabular-nums">
      <span role="timer">{left === null ? formatDateTime(startTime) : formatCountdown(left)}</span>
    </Figure>
  )
}
