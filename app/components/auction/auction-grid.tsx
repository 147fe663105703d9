import { useFetcher, useLocation } from '@remix-run/react'
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react'
import { useTranslation } from '~/i18n/use-translation.ts'
import {
  AuctionCard,
  type CardAction,
  type CardLabels,
} from '~/components/auction/auction-card.tsx'
import {
  loginToBidHref,
  useBidAnnouncer,
  type BidActionResult,
  type BidIntent,
} from '~/components/auction/bid-panel.tsx'
import { useFairPlayLabels } from '~/components/auction/fair-play.tsx'
import { textWith } from '~/i18n/text-with.ts'
import type { AuctionCardView } from '~/models/auction-card.ts'
import { formatCountdown } from '~/utils/dates.ts'
import { useFormatMoney, useOptionalUser } from '~/utils/hooks.ts'
import { useLinkClicks } from '~/utils/link-clicks.ts'
import { useLiveAuctions } from '~/utils/use-live-auction.ts'
import { BID_ACTION } from '~/utils/revalidation.ts'
import { useIsPending } from '~/utils/use-is-pending.ts'

/** Why a signed-in person cannot bid (they lead) or prebid (they hold one) on a card, if so. */
export function cardDisabledReason(
  auction: Pick<AuctionCardView, 'id' | 'status' | 'lastBidderId' | 'lastBidderIsBot'>,
  own: { userId: string; prebidIds?: readonly string[] },
  labels: { leading: string; prebidDone: string },
): string | null {
  if (auction.status === 'live')
    return auction.lastBidderId === own.userId && !auction.lastBidderIsBot ? labels.leading : null
  return own.prebidIds?.includes(auction.id) ? labels.prebidDone : null
}

/**
 * The cards of the home page and the auctions list, live ones following their rooms. A page
 * shows a hundred of them: each card is plain markup from its props (links are anchors, the
 * bid button a plain form), and the grid does for all of them what each would otherwise do
 * itself: the live updates and the countdown clock, client-side navigation, and sending bids
 * with a busy state and a toast.
 */
export function AuctionGrid({
  items,
  prebidIds,
  watchedIds,
  className,
  heading = 'h3',
}: {
  items: readonly AuctionCardView[]
  prebidIds?: readonly string[]
  /** The auctions the signed-in person watches (their cards' watch toggles). */
  watchedIds?: readonly string[]
  className: string
  /** The cards' title level: h2 where the grid stands right under the page's h1. */
  heading?: 'h2' | 'h3'
}) {
  const { t } = useTranslation()
  const user = useOptionalUser()
  const formatMoney = useFormatMoney()
  const location = useLocation()
  const onClick = useLinkClicks()
  const { auctions, msLeft } = useLiveAuctions(items)
  const { sending, send, done } = useBidSubmissions()
  const fairPlay = useFairPlayLabels()
  const labels = useMemo<CardLabels>(
    () => ({
      status: {
        live: t('auction.status.live'),
        upcoming: t('auction.status.upcoming'),
        finished: t('auction.status.finished'),
      },
      loginToBid: t('auction.loginToBid'),
      bid: t('auction.bidButton'),
      prebid: t('auction.prebidButton'),
      placing: t('auction.placing'),
      leading: t('auction.leading'),
      prebidDone: t('auction.prebidDone'),
      unknownWinner: t('home.unknownWinner'),
      retail: textWith(t, 'home.retail', 'price'),
      packageBids: (count) => t('auction.packageBids', { count }),
      startsAt: textWith(t, 'auction.startsAt', 'date'),
      winner: textWith(t, 'home.winner', 'name'),
      fairPlay,
      heading,
    }),
    [t, fairPlay, heading],
  )
  const loginHref = loginToBidHref(location)
  // Where a card's form without JavaScript comes back to after its bid.
  const back = location.pathname + location.search

  const onSubmit = (event: FormEvent<HTMLUListElement>) => {
    const form = event.target
    if (!(form instanceof HTMLFormElement)) return
    const intent = form.elements.namedItem('intent')
    const auctionId = form.elements.namedItem('auctionId')
    if (!(intent instanceof HTMLInputElement) || !(auctionId instanceof HTMLInputElement)) return
    if (intent.value !== 'bid' && intent.value !== 'prebid') return
    event.preventDefault()
    send({ intent: intent.value, auctionId: auctionId.value })
  }

  const actionOf = (auction: AuctionCardView): CardAction => {
    if (auction.status === 'finished') return null
    if (!user) return { kind: 'login', href: loginHref }
    const intent: BidIntent = auction.status === 'live' ? 'bid' : 'prebid'
    return {
      kind: 'form',
      intent,
      pending: sending.some((s) => s.auctionId === auction.id && s.intent === intent),
      disabledReason: cardDisabledReason(auction, { userId: user.id, prebidIds }, labels),
    }
  }

  return (
    // Clicks on the cards' links and their forms' submits are handled here, for every card.
    <ul className={className} onClick={onClick} onSubmit={onSubmit}>
      {auctions.map((auction) => {
        const left = auction.status === 'live' ? msLeft(auction) : null
        return (
          <li key={auction.id}>
            <AuctionCard
              auction={auction}
              countdown={left === null ? null : formatCountdown(left)}
              action={actionOf(auction)}
              back={back}
              labels={labels}
              price={formatMoney(auction.finalPrice ?? auction.currentPrice)}
              retail={labels.retail(formatMoney(auction.retailPrice))}
              watching={
                user && watchedIds && auction.status !== 'finished'
                  ? watchedIds.includes(auction.id)
                  : null
              }
            />
          </li>
        )
      })}
      {sending.map((s) => (
        <BidSubmission key={`${s.intent}-${s.auctionId}`} {...s} onDone={done} />
      ))}
    </ul>
  )
}

type Sending = { intent: BidIntent; auctionId: string }

/** The grid's bids and prebids on their way: one at a time per card. */
function useBidSubmissions() {
  const [sending, setSending] = useState<readonly Sending[]>([])
  const send = (next: Sending) =>
    setSending((current) =>
      current.some((s) => s.auctionId === next.auctionId && s.intent === next.intent)
        ? current
        : [...current, next],
    )
  const done = useCallback(
    (finished: Sending) =>
      setSending((current) =>
        current.filter((s) => s.auctionId !== finished.auctionId || s.intent !== finished.intent),
      ),
    [],
  )
  return { sending, send, done }
}

/**
 * One bid or prebid on its way, through a fetcher (so the page's data is revalidated after it,
 * as for the auction page's button); says how it went and then leaves.
 */
function BidSubmission({
  intent,
  auctionId,
  onDone,
}: Sending & { onDone: (sent: Sending) => void }) {
  const fetcher = useFetcher<BidActionResult>({ key: `${intent}-${auctionId}` })
  const pending = useIsPending({ fetcher })
  const announce = useBidAnnouncer()
  const submitted = useRef(false)
  const busy = useRef(false)
  const { submit } = fetcher

  useEffect(() => {
    if (submitted.current) return
    submitted.current = true
    const body = new FormData()
    body.set('intent', intent)
    body.set('auctionId', auctionId)
    body.set('via', 'fetcher')
    void submit(body, { method: 'post', action: BID_ACTION, preventScrollReset: true })
  }, [submit, intent, auctionId])

  useEffect(() => {
    if (pending) {
      busy.current = true
      return
    }
    if (!busy.current) return
    busy.current = false
    if (fetcher.data) announce(fetcher.data, intent, auctionId)
    onDone({ intent, auctionId })
  }, [pending, fetcher.data, announce, onDone, intent, auctionId])

  return null
}
