import type { Engine } from './engine.ts'
import {
  budgetRefundReference,
  prebidRefundReference,
  readBudgetHolds,
  readPrebidHolds,
} from './holds.ts'
import type { LedgerReason } from './types.ts'

// What a deleted auction owes people: the bid of every prebid that did not become a bid and
// what is left of every auto-bid budget, paid from the Postgres rows with one reference per
// row, so a retry after any error pays what is left and nothing twice
// (docs/decisions/041-deleted-auction-refunds-from-postgres.md).

/** Waits until the outbox has written every entry up to `entryId`; false after `timeoutMs`. */
export async function waitForOutbox(
  engine: Engine,
  entryId: string,
  timeoutMs: number,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (await engine.outboxWrittenThrough(entryId)) return true
    if (Date.now() >= deadline) return false
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

export type Refunds = { prebids: number; budgets: number }

/**
 * Pays back the auction's prebids and auto-bid budgets as Postgres holds them. Only once Redis
 * no longer holds them (Engine.removeAuction) and the outbox has written every entry up to that
 * step (waitForOutbox): then the rows are complete and nothing changes them any more. Returns
 * how many were paid by this call. A person whose account is gone is owed nothing
 * (docs/decisions/029-nothing-paid-disappears.md).
 */
export async function refundHolds(engine: Engine, auctionId: string): Promise<Refunds> {
  const refunds: Refunds = { prebids: 0, budgets: 0 }
  for (const prebid of await readPrebidHolds(engine.prisma, auctionId)) {
    const reference = prebidRefundReference(prebid.id)
    if (await refund(engine, prebid.userId, 1, 'refund', reference, auctionId)) refunds.prebids += 1
  }
  for (const budget of await readBudgetHolds(engine.prisma, auctionId)) {
    if (budget.left <= 0) continue
    const reference = budgetRefundReference(budget.id)
    if (await refund(engine, budget.userId, budget.left, 'autobid_return', reference, auctionId))
      refunds.budgets += 1
  }
  return refunds
}

async function refund(
  engine: Engine,
  userId: string,
  amount: number,
  reason: LedgerReason,
  reference: string,
  auctionId: string,
): Promise<boolean> {
  // A reference the ledger has is a replay, also after a loss of Redis (Engine.credit).
  const result = await engine.credit(userId, amount, reason, reference, auctionId)
  return result.ok && result.applied
}
