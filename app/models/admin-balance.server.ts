import { randomUUID } from 'node:crypto'
import { isNotReplicated, type BalanceChange, type Engine } from '../../engine/index.ts'
import { DomainError } from '~/utils/domain-error.ts'
import type { UserEditInput } from '~/validation/admin-users.ts'

// An admin's change of a bid balance, for the users page's form and PATCH /api/admin/users/{id}
// (docs/rules.md#admin-users, docs/decisions/028-balance-adjustments.md, 042-balance-set-once.md).

/**
 * What an edit asks of the balance: nothing, a change by `delta` bids with the admin's reason,
 * or a new balance (`target`), recorded as its difference from the balance at that moment and,
 * with `expected`, applied only while the balance is still the one the caller saw
 * (docs/decisions/028-balance-adjustments.md, 042-balance-set-once.md).
 */
export function balanceChange(input: UserEditInput): BalanceChange | null {
  if (input.bidBalanceAdjustment) {
    const { delta, reason } = input.bidBalanceAdjustment
    return { delta, note: reason }
  }
  if (input.bidBalance === undefined) return null
  return {
    target: input.bidBalance,
    note: input.bidBalanceReason ?? '',
    ...(input.expectedBidBalance === undefined ? {} : { expected: input.expectedBidBalance }),
  }
}

/** An adjustment's refusals (409), each said at the form's balance field. */
export const BALANCE_REFUSALS = new Set([
  'errors.balanceBelowZero',
  'errors.balanceAboveMax',
  'errors.balanceStale',
])
const refusalKeys = {
  below_zero: 'errors.balanceBelowZero',
  above_max: 'errors.balanceAboveMax',
  stale: 'errors.balanceStale',
} as const

/**
 * Changes a balance, atomically in the engine, as the balance is at that moment: bids bought or
 * spent while the admin was looking stay. The ledger row keeps the admin and the reason. Applied
 * once per `reference`: the same request sent again (a double submit, a retry after a replica
 * timeout) changes nothing more. Refused (409, nothing changed) below 0, above the engine's
 * maximum, or when `expected` is given and the balance is no longer that.
 */
export async function adjustBidBalance(
  engine: Engine,
  adminId: string,
  userId: string,
  change: BalanceChange,
  reference: string,
) {
  let result
  try {
    result = await engine.adjustBalance(userId, { ...change, adminId, reference })
  } catch (error) {
    // Written but not confirmed by a replica in time (decision 037): it stays on the primary,
    // and the same request sent again confirms it without applying it twice.
    if (isNotReplicated(error)) throw new DomainError(503, 'errors.notConfirmed')
    throw error
  }
  if (result.ok) return
  if (result.reason === 'user_not_found') throw new DomainError(404, 'errors.userNotFound')
  throw new DomainError(409, refusalKeys[result.reason])
}

/** The key of a rendered edit form (its hidden field): sending that form again is one change. */
export const newIdempotencyKey = () => randomUUID()

/**
 * The ledger reference of an admin's balance change: from the request's idempotency key (the
 * page form's hidden field, the API's Idempotency-Key header), so that sending it again is the
 * same change; a request without one is a change of its own.
 */
export function balanceReference(adminId: string, userId: string, idempotencyKey?: string) {
  return `admin:${adminId}:${userId}:${idempotencyKey ?? randomUUID()}`
}
