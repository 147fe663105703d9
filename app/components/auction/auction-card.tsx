import { memo, type ReactNode } from 'react'
import { BidFormFields, loginButtonClass, type BidIntent } from '~/components/auction/bid-panel.tsx'
import { FairPlayBadges, type FairPlayLabels } from '~/components/auction/fair-play.tsx'
import { StatusBadgeView } from '~/components/auction/status-badge.tsx'
import type { AuctionCardView } from '~/models/auction-card.ts'
import { formatCountdown, formatDate, formatDateTime } from '~/utils/dates.ts'
import { BID_ACTION } from '~/utils/revalidation.ts'
import { ProductImage } from '~/components/product-image.tsx'
import { WatchToggle } from '~/components/auction/watch-toggle.tsx'
import { CARD_IMAGE } from '~/utils/product-image.ts'

/** Texts every card of a grid shares, translated once for the grid. */
export type CardLabels = {
  status: Record<AuctionCardView['status'], string>
  loginToBid: string
  bid: string
  prebid: string
  placing: string
  leading: string
  prebidDone: string
  unknownWinner: string
  retail: (price: string) => string
  /** A bid-package auction's bids ("Package: 50 bids"). */
  packageBids: (count: number) => string
  startsAt: (date: string) => string
  winner: (name: string) => string
  /** The fair-play badges (beginners only, closing to new bidders). */
  fairPlay: FairPlayLabels
  /** The cards' title level: one below the heading they stand under. */
  heading: 'h2' | 'h3'
}

/**
 * What stands at the bottom of a card: a login link, a bid or prebid form (disabled where the
 * person leads or holds a prebid), or nothing.
 */
export type CardAction =
  | { kind: 'login'; href: string }
  | { kind: 'form'; intent: BidIntent; pending: boolean; disabledReason: string | null }
  | null

/**
 * One card of a grid (auction-grid.tsx): plain markup from its props, drawn again only when
 * one of them changes.
 */
export const AuctionCard = memo(
  function AuctionCard({
    auction,
    countdown,
    action,
    back,
    labels,
    price,
    retail,
    watching = null,
  }: {
    auction: AuctionCardView
    countdown: string | null
    action: CardAction
    /** The page a bid without JavaScript comes back to. */
    back: string
    labels: CardLabels
    price: string
    retail: string
    /** Whether the signed-in person watches it; null: no watch toggle (signed out, finished). */
    watching?: boolean | null
  }) {
    const StatusLine = STATUS_LINES[auction.status]
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
          <FairPlayBadges auction={auction} labels={labels.fairPlay} />
          <labels.heading className="font-semibold leading-snug">
            <a href={href} data-discover="true" className="hover:underline">
              {auction.title}
            </a>
          </labels.heading>
          {auction.packageBids === null ? null : (
            <p className="text-sm font-semibold text-amber-800">
              {labels.packageBids(auction.packageBids)}
            </p>
          )}
          <p className="text-2xl font-black tabular-nums text-amber-700">{price}</p>
          <p className="text-sm text-slate-700">
            <StatusLine auction={auction} countdown={countdown} labels={labels} />
          </p>
          <p className="text-xs text-slate-500">{retail}</p>
          {watching === null ? null : <WatchToggle auctionId={auction.id} watching={watching} />}
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
    a.watching === b.watching &&
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

type StatusLineProps = {
  auction: AuctionCardView
  /** A live auction's time left, formatted. */
  countdown: string | null
  labels: CardLabels
}

/** A live auction's timer and its last bidder. */
function LiveLine({ auction, countdown }: StatusLineProps) {
  return (
    <span className="font-bold tabular-nums" role="timer">
      {countdown ?? formatCountdown(0)}
      {auction.lastBidder ? (
        <span className="ml-2 font-normal text-slate-600">· {auction.lastBidder}</span>
      ) : null}
    </span>
  )
}

/** When an upcoming auction starts. */
function UpcomingLine({ auction, labels }: StatusLineProps) {
  return labels.startsAt(formatDateTime(auction.startTime))
}

/** Who won a finished auction, and when it ended. */
function FinishedLine({ auction, labels }: StatusLineProps) {
  return (
    <>
      {labels.winner(auction.winnerName ?? labels.unknownWinner)}
      {auction.endTime ? (
        <span className="ml-1 text-slate-500">· {formatDate(auction.endTime)}</span>
      ) : null}
    </>
  )
}

/** The line under a card's price, one component per state of the auction. */
const STATUS_LINES: Record<AuctionCardView['status'], (props: StatusLineProps) => ReactNode> = {
  live: LiveLine,
  upcoming: UpcomingLine,
  finished: FinishedLine,
}
