import type { ShouldRevalidateFunction } from '@remix-run/react'

/**
 * After a bid sent with JavaScript, the root and the pages that show auctions do not read their
 * data again: what a bid changes (price, timer, last bidder, recent bids, the bidder's balance)
 * reaches the page through its live updates and the `bidBalanceUpdate` event. Re-reading a page
 * of a hundred cards after every bid would cost the server many times the bid itself.
 */
export const revalidateUnlessBid: ShouldRevalidateFunction = ({
  formData,
  defaultShouldRevalidate,
}) => (formData?.get('intent') === 'bid' ? false : defaultShouldRevalidate)
