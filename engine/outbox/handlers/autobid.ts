import type { OutboxHandler } from '../events.ts'

/** An auto-bid reserve (amount < 0) or return (amount >= 0) of the user's balance. */
export const autobid: OutboxHandler<'autobid'> = (batch, { id, at, fields: f }) => {
  const amount = Number(f.amount)
  const reserve = f.kind === 'reserve'
  batch.user(f.user!)
  if (amount !== 0) {
    batch.ledger.push({
      userId: f.user!,
      amount,
      balanceAfter: Number(f.balance),
      reason: reserve ? 'autobid_reserve' : 'autobid_return',
      reference: `autobid:${id}`,
      auctionId: f.auction!,
      createdAt: at,
    })
  }
  batch.autoBids.push({ auctionId: f.auction!, userId: f.user!, amount })
}
