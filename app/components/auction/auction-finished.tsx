import { useTranslation } from '~/i18n/use-translation.ts'
import {
  Figure,
  PriceFigure,
  type AuctionStateProps,
} from '~/components/auction/auction-figures.tsx'
import { BuyNowOffer } from '~/components/orders/buy-now-offer.tsx'

/** A finished auction's figures: the winning bid and the winner (a person, or the house). */
export function FinishedFigures({ auction }: AuctionStateProps) {
  const { t } = useTranslation()
  const winnerName =
    auction.winner?.username ??
    (auction.winnerBotName ? t('auction.houseWinner', { name: auction.winnerBotName }) : null)
  return (
    <>
      <PriceFigure label={t('auction.winningBid')} auction={auction} />
      <Figure label={t('auction.winner')} className="text-xl font-bold [overflow-wrap:anywhere]">
        {winnerName ?? '—'}
      </Figure>
    </>
  )
}

/** A word that nobody bid, and Buy It Now (docs/decisions/017-buy-it-now.md) where offered. */
export function FinishedActions({ auction, buyNow }: AuctionStateProps) {
  const { t } = useTranslation()
  return (
    <>
      {auction.totalBids === 0 ? (
        <p className="rounded-lg bg-slate-100 p-3 text-center font-medium">{t('auction.noBids')}</p>
      ) : null}
      {buyNow ? <BuyNowOffer offer={buyNow} retailPrice={auction.retailPrice} /> : null}
    </>
  )
}
