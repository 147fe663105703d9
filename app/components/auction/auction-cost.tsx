import { useFetcher, useRevalidator } from '@remix-run/react'
import { useEffect, useRef } from 'react'
import { useTranslation } from '~/i18n/use-translation.ts'
import type { BidActionResult } from '~/components/auction/bid-panel.tsx'
import type { AuctionCost } from '~/models/auction-cost.server.ts'
import { BID_PRICE } from '~/utils/bid-packages.ts'
import { useFormatMoney } from '~/utils/hooks.ts'
import { OUTBOX_SETTLE_MS } from '~/utils/revalidation.ts'
import { useSocket } from '~/utils/socket.tsx'

// What an auction has cost the signed-in person (docs/decisions/083-what-an-auction-has-cost-you.md):
// on its page and on its row of /bid-history. Nothing for a visitor or before their first bid.

/** The figures: bids spent, of which free, their value, and Buy It Now's price after them. */
export function AuctionCostList({
  cost,
  className = '',
}: {
  cost: AuctionCost
  className?: string
}) {
  const { t } = useTranslation()
  const money = useFormatMoney()
  const rows: Array<[string, string]> = [
    [t('auctionCost.bids'), String(cost.bids)],
    [t('auctionCost.free'), String(cost.free)],
    [t('auctionCost.value', { price: money(BID_PRICE) }), money(cost.value)],
    [
      t('auctionCost.buyNow'),
      cost.buyNowPrice === null ? t('auctionCost.noBuyNow') : money(cost.buyNowPrice),
    ],
  ]
  return (
    <dl className={`space-y-1 text-sm ${className}`.trim()}>
      {rows.map(([term, value]) => (
        <div key={term} className="flex flex-wrap items-baseline justify-between gap-x-3">
          <dt className="text-slate-600">{term}</dt>
          <dd className="ml-auto font-semibold tabular-nums text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  )
}

/**
 * The auction page's block. Its figures come from the page's loader, which reads them again a
 * moment after the person's own bid or auto-bid here (once the outbox has written it), never
 * after other people's.
 */
export function AuctionCostPanel({
  auctionId,
  cost,
}: {
  auctionId: string
  cost: AuctionCost | null
}) {
  const { t } = useTranslation()
  useRefreshAfterOwnBids(auctionId)
  if (!cost) return null
  return (
    <section
      aria-labelledby="auction-cost"
      className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm"
    >
      <h2 id="auction-cost" className="mb-2 text-base font-bold">
        {t('auctionCost.title')}
      </h2>
      <AuctionCostList cost={cost} />
    </section>
  )
}

function useRefreshAfterOwnBids(auctionId: string) {
  const { revalidate } = useRevalidator()
  const { socket } = useSocket()
  // The page's bid button's fetcher (app/components/auction/bid-panel.tsx), read by its key.
  const answer = useFetcher<BidActionResult>({ key: `bid-${auctionId}` }).data
  const seen = useRef(answer)
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  useEffect(() => {
    const later = () => {
      clearTimeout(timer.current)
      timer.current = setTimeout(revalidate, OUTBOX_SETTLE_MS)
    }
    if (answer !== seen.current && answer?.ok) later()
    seen.current = answer
    const onAutoBid = (payload: { auctionId?: string }) => {
      if (payload.auctionId === auctionId) later()
    }
    socket?.on('autoBidUpdate', onAutoBid)
    return () => {
      socket?.off('autoBidUpdate', onAutoBid)
    }
  }, [answer, socket, auctionId, revalidate])
  useEffect(() => () => clearTimeout(timer.current), [])
}
