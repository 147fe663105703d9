import { useFetcher, useLocation } from '@remix-run/react'
import { memo, useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import {
  BidFormFields,
  loginButtonClass,
  loginToBidHref,
  useBidAnnouncer,
  type BidActionResult,
  type BidIntent,
} from '~/components/auction/bid-panel.tsx'
import { StatusBadgeView } from '~/components/auction/status-badge.tsx'
import { textWith } from '~/i18n/text-with.ts'
import type { AuctionCardView } from '~/models/auction-card.ts'
import { formatCountdown, formatDate, formatDateTime } from '~/utils/dates.ts'
import { useFormatMoney, useOptionalUser } from '~/utils/hooks.ts'
import { useLinkClicks } from '~/utils/link-clicks.ts'
import { useLiveAuctions } from '~/utils/use-live-auction.ts'
import { BID_ACTION } from '~/utils/revalidation.ts'
import { ProductImage } from '~/components/product-image.tsx'
import { CARD_IMAGE } from '~/utils/product-image.ts'

/** Texts every card of a grid shares, translated once for the grid. */
type CardLabels = {
  status: Record<AuctionCardView['status'], string>
  loginToBid: string
  bid: string
  prebid: string
  placing: string
  leading: string
  prebidDone: string
  unknownWinner: string
  retail: (price: string) => string
  startsAt: (date: string) => string
  winner: (name: string) => string
}

/**
 * What stands at the bottom of a card: a login link, a bid or prebid form (disabled where the
 * person leads or holds a prebid), or nothing.
 */
type CardAction =
  | { kind: 'login'; href: string }
  | { kind: 'form'; intent: BidIntent; pending: boolean; disabledReason: string | null }
  | null

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
  className,
}: {
  items: readonly AuctionCardView[]
  prebidIds?: readonly string[]
  className: string
}) {
  const { t } = useTranslation()
  const user = useOptionalUser()
  const formatMoney = useFormatMoney()
  const location = useLocation()
  const onClick = useLinkClicks()
  const { auctions, msLeft } = useLiveAuctions(items)
  const { sending, send, done } = useBidSubmissions()
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
      startsAt: textWith(t, 'auction.startsAt', 'date'),
      winner: textWith(t, 'home.winner', 'name'),
    }),
    [t],
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
              detail={
                auction.status === 'upcoming'
                  ? labels.startsAt(formatDateTime(auction.startTime))
                  : auction.status === 'finished'
                    ? labels.winner(auction.winnerName ?? labels.unknownWinner)
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

const AuctionCard = memo(
  function AuctionCard({
    auction,
    countdown,
    action,
    back,
    labels,
    price,
    retail,
    detail,
  }: {
    auction: AuctionCardView
    countdown: string | null
    action: CardAction
    /** The page a bid without JavaScript comes back to. */
    back: string
    labels: CardLabels
    price: string
    retail: string
    /** An upcoming auction's start, a finished one's winner. */
    detail: string | null
  }) {
    const href = `/auction/${auction.slug}`
    return (
      <article className="flex flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm">
        <a
          href={href}
          data-discover="true"
          className="flex aspect-[16/10] items-center justify-center bg-slate-100"
          tabIndex={-1}
          aria-hidden
        >
          {auction.imageUrl ? (
            <ProductImage
              url={auction.imageUrl}
              alt=""
              {...CARD_IMAGE}
              className="h-full w-full object-contain"
            />
          ) : (
            // One small file the browser keeps, rather than the same drawing in every card.
            <img src="/image-off.svg" alt="" className="h-10 w-10" />
          )}
        </a>
        <div className="flex flex-1 flex-col gap-2 p-4">
          <div className="flex items-center justify-between gap-2">
            <StatusBadgeView status={auction.status} label={labels.status[auction.status]} />
            <span className="font-mono text-xs text-slate-600">{auction.displayId}</span>
          </div>
          <h3 className="font-semibold leading-snug">
            <a href={href} data-discover="true" className="hover:underline">
              {auction.title}
            </a>
          </h3>
          <p className="text-2xl font-black tabular-nums text-amber-700">{price}</p>
          <p className="text-sm text-slate-700">
            {auction.status === 'live' ? (
              <span className="font-bold tabular-nums" role="timer">
                {countdown ?? formatCountdown(0)}
                {auction.lastBidder ? (
                  <span className="ml-2 font-normal text-slate-600">· {auction.lastBidder}</span>
                ) : null}
              </span>
            ) : auction.status === 'upcoming' ? (
              detail
            ) : (
              <>
                {detail}
                {auction.endTime ? (
                  <span className="ml-1 text-slate-500">· {formatDate(auction.endTime)}</span>
                ) : null}
              </>
            )}
          </p>
          <p className="text-xs text-slate-500">{retail}</p>
          {action ? (
            <div className="mt-auto pt-2">
              {action.kind === 'login' ? (
                <a
                  href={action.href}
                  data-discover="true"
                  className={loginButtonClass(CARD_BUTTON)}
                >
                  {labels.loginToBid}
                </a>
              ) : (
                <form method="post" action={BID_ACTION}>
                  <CardFormFields
                    auctionId={auction.id}
                    intent={action.intent}
                    back={back}
                    pending={action.pending}
                    labels={labels}
                    disabledReason={action.disabledReason}
                  />
                </form>
              )}
            </div>
          ) : null}
        </div>
      </article>
    )
  },
  (a, b) =>
    a.auction === b.auction &&
    a.countdown === b.countdown &&
    a.back === b.back &&
    a.labels === b.labels &&
    a.price === b.price &&
    a.retail === b.retail &&
    a.detail === b.detail &&
    sameAction(a.action, b.action),
)

const CARD_BUTTON = '!py-2 !text-base'

function CardFormFields({
  auctionId,
  intent,
  back,
  pending,
  labels,
  disabledReason,
}: {
  auctionId: string
  intent: BidIntent
  back: string
  pending: boolean
  labels: CardLabels
  disabledReason: string | null
}) {
  return (
    <BidFormFields
      auctionId={auctionId}
      intent={intent}
      redirectTo={back}
      pending={pending}
      label={intent === 'bid' ? labels.bid : labels.prebid}
      placingLabel={labels.placing}
      disabledReason={disabledReason}
      className={CARD_BUTTON}
    />
  )
}

function sameAction(a: CardAction, b: CardAction) {
  if (a === null || b === null) return a === b
  if (a.kind === 'login' || b.kind === 'login')
    return a.kind === b.kind && (a as { href: string }).href === (b as { href: string }).href
  return a.intent === b.intent && a.pending === b.pending && a.disabledReason === b.disabledReason
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
    void submit(body, { method: 'post', action: BID_ACTION, preventScrollReset: true })
  }, [submit, intent, auctionId])

  useEffect(() => {
    if (fetcher.state !== 'idle') {
      busy.current = true
      return
    }
    if (!busy.current) return
    busy.current = false
    if (fetcher.data) announce(fetcher.data, intent, auctionId)
    onDone({ intent, auctionId })
  }, [fetcher.state, fetcher.data, announce, onDone, intent, auctionId])

  return null
}
