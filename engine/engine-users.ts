import { EngineReads } from './engine-reads.ts'
import { readUser } from './load.ts'
import type { Refused } from './lua-runner.ts'
import {
  adjustBalanceScript,
  creditScript,
  loadUserScript,
  removeUserScript,
  takeBackScript,
} from './scripts.ts'
import {
  ADMIN_BALANCE_MAX,
  type AdjustResult,
  type BalanceAdjustment,
  type CreditResult,
  type LedgerReason,
  PAYMENT_REFUND,
  type TakeBackResult,
} from './types.ts'

/**
 * How long a deleted account's marker stays in Redis: far longer than its Postgres row takes
 * to go, so a copy of that row read just before cannot bring the balance back.
 */
const USER_GONE_MS = 60 * 60 * 1000

/** The engine's balances and users. */
export class EngineUsers extends EngineReads {
  /** Adds bids exactly once per reference (replays answer `applied: false`). */
  async credit(
    userId: string,
    amount: number,
    reason: LedgerReason,
    reference: string,
    auctionId = '',
  ): Promise<CreditResult> {
    if (!Number.isSafeInteger(amount) || amount <= 0)
      throw new RangeError('credit amount must be a positive integer')
    if (!reference) throw new RangeError('credit needs a reference')
    const replay = await this.replayed(userId, reference)
    if (replay) return replay
    const k = this.keys
    const reply = await this.withUser(userId, () =>
      creditScript.run(
        this.acked,
        { user: k.user(userId), references: k.references, outbox: k.outbox },
        { userId, amount, reason, reference, auctionId },
      ),
    )
    if (reply === 'user_not_found') return { ok: false, reason: 'user_not_found' }
    // Refused only when the balance left Redis between its load and the second try.
    const balance = reply.status === 'refused' ? 0 : reply.balance
    if (reply.status === 'ok') this.emit('balance', { userId, balance })
    // A replay too: the first answer may have been a NotReplicated one.
    await this.replication.confirm('credit')
    return { ok: true, applied: reply.status === 'ok', balance }
  }

  /**
   * Takes back, once per reference, up to `most` bids a refunded payment credited: as many as
   * the balance holds now (docs/payments.md). What is not taken stays with the person; the
   * caller records it for staff.
   */
  async takeBack(userId: string, most: number, reference: string): Promise<TakeBackResult> {
    if (!Number.isSafeInteger(most) || most <= 0)
      throw new RangeError('bids to take back must be a positive integer')
    if (!reference) throw new RangeError('a take-back needs a reference')
    const earlier = await this.takenBefore(userId, reference)
    if (earlier) return earlier
    const k = this.keys
    const reply = await this.withUser(userId, () =>
      takeBackScript.run(
        this.acked,
        { user: k.user(userId), references: k.references, outbox: k.outbox },
        { userId, most, reason: PAYMENT_REFUND, reference },
      ),
    )
    if (reply === 'user_not_found') return { ok: false, reason: 'user_not_found' }
    if (reply.status === 'refused') return { ok: true, applied: false, taken: null, balance: 0 }
    if (reply.status === 'ok') this.emit('balance', { userId, balance: reply.balance })
    await this.replication.confirm('take-back')
    if (reply.status === 'ok')
      return { ok: true, applied: true, taken: reply.taken, balance: reply.balance }
    // A repeat Redis remembers: what the first call took is in its ledger row, once written.
    return (
      (await this.takenBefore(userId, reference)) ?? {
        ok: true,
        applied: false,
        taken: null,
        balance: reply.balance,
      }
    )
  }

  /** A take-back the ledger has: what it took (its row's amount, negative). */
  private async takenBefore(userId: string, reference: string): Promise<TakeBackResult | null> {
    const row = await this.prisma.balanceLedger.findUnique({
      where: { reference },
      select: { amount: true },
    })
    if (!row) return null
    const balance = await this.getBalance(userId)
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
  async adjustBalance(userId: string, change: BalanceAdjustment): Promise<AdjustResult> {
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
    const replay = await this.replayed(userId, reference)
    if (replay) return replay
    const k = this.keys
    const reply = await this.withUser(userId, () =>
      adjustBalanceScript.run(
        this.acked,
        { user: k.user(userId), references: k.references, outbox: k.outbox },
        {
          userId,
          change: target ?? delta,
          reference,
          adminId,
          note,
          expected: expected ?? '',
          maximum: ADMIN_BALANCE_MAX,
          mode: target === undefined ? 'add' : 'set',
        },
      ),
    )
    if (reply === 'user_not_found') return { ok: false, reason: 'user_not_found' }
    // Refused only when the balance left Redis between its load and the second try.
    const balance = reply.status === 'refused' ? 0 : reply.balance
    if (reply.status === 'below_zero' || reply.status === 'above_max' || reply.status === 'stale')
      return { ok: false, reason: reply.status, balance }
    if (reply.status === 'ok') this.emit('balance', { userId, balance })
    await this.replication.confirm('balance adjustment')
    return { ok: true, applied: reply.status === 'ok', balance }
  }

  /**
   * A credit or an adjustment under a reference the ledger has is a replay. Redis remembers the
   * references it applied (its script answers a replay itself), but after a loss of its data
   * only the ledger does (docs/operations.md "Recover from the loss of Redis"); one the outbox
   * has not written yet is still in Redis, or was lost with it from both sides.
   */
  private async replayed(userId: string, reference: string): Promise<CreditResult | null> {
    if ((await this.prisma.balanceLedger.count({ where: { reference } })) === 0) return null
    const balance = await this.getBalance(userId)
    return balance === null
      ? { ok: false, reason: 'user_not_found' }
      : { ok: true, applied: false, balance }
  }

  /**
   * Whether a credit or take-back under this reference was applied: Redis remembers the
   * references it applied, the ledger those the outbox wrote (also after a loss of Redis).
   */
  async applied(reference: string): Promise<boolean> {
    if (await this.redis.sismember(this.keys.references, reference)) return true
    return (await this.prisma.balanceLedger.count({ where: { reference } })) > 0
  }

  /** The user's bid balance (hot in Redis; loaded from Postgres on first use). */
  async getBalance(userId: string): Promise<number | null> {
    const hot = await this.redis.hget(this.keys.user(userId), 'bal')
    if (hot !== null) return Number(hot)
    return (await this.loadUser(userId))
      ? Number(await this.redis.hget(this.keys.user(userId), 'bal'))
      : null
  }

  /**
   * Puts the user's balance and name into Redis unless already there. False: no such user (or
   * an account being deleted, see removeUser).
   */
  async loadUser(userId: string): Promise<boolean> {
    const user = await readUser(this.prisma, userId)
    if (!user) return false
    return loadUserScript.run(
      this.redis,
      { user: this.keys.user(userId) },
      { balance: user.balance, name: user.name },
    )
  }

  /**
   * Takes a deleted account out of the engine at once, in one atomic step: its balance, its
   * prebids on upcoming auctions (refunded to no one, and no longer counted) and its
   * auto-bidders' budgets. From then on its bids, prebids and credits answer user_not_found.
   * Called before its Postgres row goes (app/models/admin-users.server.ts).
   */
  async removeUser(userId: string): Promise<{ prebids: Map<string, number>; autoBids: string[] }> {
    const k = this.keys
    const removed = await removeUserScript.run(
      this.redis,
      { user: k.user(userId), upcoming: k.upcoming, autoBidIndex: k.autoBidIndex },
      { base: k.base, userId, ms: USER_GONE_MS },
    )
    for (const [auctionId, left] of removed.prebids)
      this.emit('prebid', { auctionId, userId, prebids: left })
    for (const auctionId of removed.autoBids)
      this.emit('autobid', { auctionId, userId, status: null })
    return removed
  }

  /** Keeps the name shown in bid lists in step with a renamed user. */
  async refreshUserName(userId: string, username: string) {
    const key = this.keys.user(userId)
    if (await this.redis.exists(key)) await this.redis.hset(key, 'name', username)
  }

  /** Runs a script that needs the user's balance in Redis, loading it once when missing. */
  protected async withUser<R extends { status: string }>(
    userId: string,
    call: () => Promise<R>,
  ): Promise<R | 'user_not_found'> {
    const reply = await call()
    if (
      reply.status !== 'refused' ||
      (reply as unknown as Refused<string>).reason !== 'user_not_loaded'
    )
      return reply
    if (!(await this.loadUser(userId))) return 'user_not_found'
    return call()
  }
}
