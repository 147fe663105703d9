import { BUDGET_REFUND_PREFIX } from '../../holds.ts'
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
  // A deleted auction's auto-bid budget paid back (engine/refunds.ts): its row is closed, so
  // a load of the auction before the row goes does not bring the budget back.
  if (f.reference?.startsWith(BUDGET_REFUND_PREFIX) && f.auction)
    batch.autoBids.push({ auctionId: f.auction, userId: f.user!, amount: Number(f.amount) })
}
