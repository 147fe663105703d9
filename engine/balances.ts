import type { EngineContext } from './context.ts'
import { defineScript, num, refusal } from './lua-runner.ts'
import {
  ADMIN_BALANCE_MAX,
  type AdjustResult,
  type BalanceAdjustment,
  type CreditResult,
  type LedgerReason,
  PAYMENT_REFUND,
  type TakeBackResult,
} from './types.ts'
import { getBalance, withUser, type NotLoaded } from './users.ts'

// The engine's changes of a balance, each once per reference: credits, take-backs of refunded
// payments and admins' adjustments. The ledger's audit is engine/balances-audit.ts.

/** A change of a balance: {outcome, entry id or '', balance}, or the user is not loaded. */
function balanceReply<Outcome extends string>(raw: unknown) {
  const reply = raw as string[]
  return refusal<NotLoaded>(reply) ?? { status: reply[0] as Outcome, balance: num(reply[2]) }
}

const creditScript = defineScript({
  name: 'credit',
  shared: ['now'],
  keys: ['user', 'references', 'outbox'],
  args: ['userId', 'amount', 'reason', 'reference', 'auctionId'],
  parse: balanceReply<'ok' | 'dup'>,
})

/** Bids a refunded payment credited, taken back as far as the balance allows. */
const takeBackScript = defineScript({
  name: 'take-back',
  shared: ['now'],
  keys: ['user', 'references', 'outbox'],
  args: ['userId', 'most', 'reason', 'reference'],
  parse: (raw) => {
    const reply = raw as string[]
    return (
      refusal<NotLoaded>(reply) ?? {
        status: reply[0] as 'ok' | 'dup',
        balance: num(reply[2]),
        taken: reply[0] === 'ok' ? num(reply[3]) : null,
      }
    )
  },
})

const adjustBalanceScript = defineScript({
  name: 'adjust-balance',
  shared: ['now'],
  keys: ['user', 'references', 'outbox'],
  args: ['userId', 'change', 'reference', 'adminId', 'note', 'expected', 'maximum', 'mode'],
  parse: balanceReply<'ok' | 'dup' | 'same' | 'stale' | 'below_zero' | 'above_max'>,
})

/** The keys of every change of a balance. */
function balanceKeys(ctx: EngineContext, userId: string) {
  const k = ctx.keys
  return { user: k.user(userId), references: k.references, outbox: k.outbox }
}

/** Adds bids exactly once per reference (replays answer `applied: false`). */
export async function credit(
  ctx: EngineContext,
  userId: string,
  amount: number,
  reason: LedgerReason,
  reference: string,
  auctionId = '',
): Promise<CreditResult> {
  if (!Number.isSafeInteger(amount) || amount <= 0)
    throw new RangeError('credit amount must be a positive integer')
  if (!reference) throw new RangeError('credit needs a reference')
  const replay = await replayed(ctx, userId, reference)
  if (replay) return replay
  const reply = await withUser(ctx, userId, () =>
    creditScript.run(ctx.acked, balanceKeys(ctx, userId), {
      userId,
      amount,
      reason,
      reference,
      auctionId,
    }),
  )
  if (reply === 'user_not_found') return { ok: false, reason: 'user_not_found' }
  // Refused only when the balance left Redis between its load and the second try.
  const balance = reply.status === 'refused' ? 0 : reply.balance
  if (reply.status === 'ok') ctx.events.emit('balance', { userId, balance })
  // A replay too: the first answer may have been a NotReplicated one.
  await ctx.replication.confirm('credit')
  return { ok: true, applied: reply.status === 'ok', balance }
}

/**
 * Takes back, once per reference, up to `most` bids a refunded payment credited: as many as
 * the balance holds now (docs/payments.md). What is not taken stays with the person; the
 * caller records it for staff.
 */
export async function takeBack(
  ctx: EngineContext,
  userId: string,
  most: number,
  reference: string,
): Promise<TakeBackResult> {
  if (!Number.isSafeInteger(most) || most <= 0)
    throw new RangeError('bids to take back must be a positive integer')
  if (!reference) throw new RangeError('a take-back needs a reference')
  const earlier = await takenBefore(ctx, userId, reference)
  if (earlier) return earlier
  const reply = await withUser(ctx, userId, () =>
    takeBackScript.run(ctx.acked, balanceKeys(ctx, userId), {
      userId,
      most,
      reason: PAYMENT_REFUND,
      reference,
    }),
  )
  if (reply === 'user_not_found') return { ok: false, reason: 'user_not_found' }
  if (reply.status === 'refused') return { ok: true, applied: false, taken: null, balance: 0 }
  if (reply.status === 'ok') ctx.events.emit('balance', { userId, balance: reply.balance })
  await ctx.replication.confirm('take-back')
  if (reply.status === 'ok')
    return { ok: true, applied: true, taken: reply.taken, balance: reply.balance }
  // A repeat Redis remembers: what the first call took is in its ledger row, once written.
  return (
    (await takenBefore(ctx, userId, reference)) ?? {
      ok: true,
      applied: false,
      taken: null,
      balance: reply.balance,
    }
  )
}

/** A take-back the ledger has: what it took (its row's amount, negative). */
async function takenBefore(
  ctx: EngineContext,
  userId: string,
  reference: string,
): Promise<TakeBackResult | null> {
  const row = await ctx.prisma.balanceLedger.findUnique({
    where: { reference },
    select: { amount: true },
  })
  if (!row) return null
  const balance = await getBalance(ctx, userId)
  return balance === null
    ? { ok: false, reason: 'user_not_found' }
    : { ok: true, applied: false, taken: 0 - row.amount, balance }
}

/**
 * An admin's change of a balance by `delta` bids, or to `target` bids, applied to the balance
 * as it is now (a set is recorded as its difference from it) and recorded in the ledger with
 * the admin and their reason; never below 0 nor, by a credit, above ADMIN_BALANCE_MAX. Once
 * per reference: a retry, also after NotReplicated, answers `applied: false` and confirms.
 */
export async function adjustBalance(
  ctx: EngineContext,
  userId: string,
  change: BalanceAdjustment,
): Promise<AdjustResult> {
  const { delta, target, reference, adminId, note, expected } = change
  const isBalance = (value: number) =>
    Number.isSafeInteger(value) && value >= 0 && value <= ADMIN_BALANCE_MAX
  if (target !== undefined) {
    if (!isBalance(target)) throw new RangeError('a balance is 0 to ADMIN_BALANCE_MAX bids')
  } else if (!Number.isSafeInteger(delta) || delta === 0 || Math.abs(delta) > ADMIN_BALANCE_MAX)
    throw new RangeError('an adjustment is a non-zero integer number of bids')
  if (expected !== undefined && (!Number.isSafeInteger(expected) || expected < 0))
    throw new RangeError('an expected balance is a non-negative integer')
  if (!reference || !adminId || (target === undefined && !note))
    throw new RangeError('an adjustment needs a reference, an admin and a reason')
  const replay = await replayed(ctx, userId, reference)
  if (replay) return replay
  const reply = await withUser(ctx, userId, () =>
    adjustBalanceScript.run(ctx.acked, balanceKeys(ctx, userId), {
      userId,
      change: target ?? delta,
      reference,
      adminId,
      note,
      expected: expected ?? '',
      maximum: ADMIN_BALANCE_MAX,
      mode: target === undefined ? 'add' : 'set',
    }),
  )
  if (reply === 'user_not_found') return { ok: false, reason: 'user_not_found' }
  // Refused only when the balance left Redis between its load and the second try.
  const balance = reply.status === 'refused' ? 0 : reply.balance
  if (reply.status === 'below_zero' || reply.status === 'above_max' || reply.status === 'stale')
    return { ok: false, reason: reply.status, balance }
  if (reply.status === 'ok') ctx.events.emit('balance', { userId, balance })
  await ctx.replication.confirm('balance adjustment')
  return { ok: true, applied: reply.status === 'ok', balance }
}

/**
 * A credit or an adjustment under a reference the ledger has is a replay. Redis remembers the
 * references it applied (its script answers a replay itself), but after a loss of its data
 * only the ledger does (docs/operations.md "Recover from the loss of Redis"); one the outbox
 * has not written yet is still in Redis, or was lost with it from both sides.
 */
async function replayed(
  ctx: EngineContext,
  userId: string,
  reference: string,
): Promise<CreditResult | null> {
  if ((await ctx.prisma.balanceLedger.count({ where: { reference } })) === 0) return null
  const balance = await getBalance(ctx, userId)
  return balance === null
    ? { ok: false, reason: 'user_not_found' }
    : { ok: true, applied: false, balance }
}

/**
 * Whether a credit or take-back under this reference was applied: Redis remembers the
 * references it applied, the ledger those the outbox wrote (also after a loss of Redis).
 */
export async function applied(ctx: EngineContext, reference: string): Promise<boolean> {
  if (await ctx.redis.sismember(ctx.keys.references, reference)) return true
  return (await ctx.prisma.balanceLedger.count({ where: { reference } })) > 0
}
