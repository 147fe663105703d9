import type { ShouldRevalidateFunction } from '@remix-run/react'

/** Where every bid and prebid button posts (app/routes/auction/resources.bid.ts). */
export const BID_ACTION = '/resources/bid'
/** Where every watch toggle posts (app/routes/auction/resources.watch.ts). */
export const WATCH_ACTION = '/resources/watch'
/** Where a page says it has shown the onboarding dialogs (app/routes/account/resources.onboarding.ts). */
export const ONBOARDING_SHOWN_ACTION = '/resources/onboarding'

/**
 * How long after a person's own bid a page that reads their bids from Postgres waits before it
 * reads them again: the engine's outbox writes a bid there a moment after the bid's answer
 * (/bid-history, and what an auction has cost them on its page).
 */
export const OUTBOX_SETTLE_MS = 750

/**
 * After a bid sent with JavaScript, the root and the pages that show auctions do not read their
 * data again: what a bid changes (price, timer, last bidder, recent bids, the bidder's balance)
 * reaches the page through its live updates, the `bidBalanceUpdate` event and the bid's own
 * answer. Re-reading a page of a hundred cards after every bid would cost the server many times
 * the bid itself. A prebid does reload them: it changes what the buttons say. A watch toggle
 * keeps what it shows from its own answer, and the onboarding dialogs keep their own state once
 * shown.
 */
export const revalidateUnlessBid: ShouldRevalidateFunction = ({
  formAction,
  formData,
  defaultShouldRevalidate,
}) =>
  (formAction === BID_ACTION && formData?.get('intent') === 'bid') ||
  formAction === WATCH_ACTION ||
  formAction === ONBOARDING_SHOWN_ACTION
    ? false
    : defaultShouldRevalidate
