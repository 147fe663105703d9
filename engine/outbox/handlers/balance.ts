import type { OutboxHandler } from '../events.ts'

/** A credit or an admin's change: a ledger row that moves the balance. */
export const balance: OutboxHandler<'balance'> = (batch, { at, fields: f }) => {
  batch.user(f.user!)
  batch.ledger.push({
    userId: f.user!,
    amount: Number(f.amount),
    balanceAfter: Number(f.balance),
    reason: f.reason as 'topup',
    reference: f.reference!,
    auctionId: f.auction || null,
    adminId: f.admin || null,
    note: f.note || null,
    createdAt: at,
  })
}
