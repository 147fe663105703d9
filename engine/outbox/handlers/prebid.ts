import type { OutboxHandler } from '../events.ts'

/** A prebid: a Prebid row, the auction's prebid count, and one bid credit off the balance. */
export const prebid: OutboxHandler<'prebid'> = (batch, { id, at, fields: f }) => {
  batch.auction(f.auction!).addPrebids += 1
  batch.prebids.push({ id, eventId: id, auctionId: f.auction!, userId: f.bidder!, createdAt: at })
  const u = batch.user(f.bidder!)
  u.addBids += 1
  u.addSpent += 1
  batch.ledger.push({
    userId: f.bidder!,
    amount: -1,
    balanceAfter: Number(f.balance),
    reason: 'prebid',
    reference: `prebid:${id}`,
    auctionId: f.auction!,
    createdAt: at,
  })
}
