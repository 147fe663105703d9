import { EngineBids } from './engine-bids.ts'
import {
  autoBidReserveScript,
  autoBidReturnScript,
  autoBidScript,
  autoBidStopScript,
} from './scripts.ts'
import {
  AUTO_BID_MAX,
  type AutoBidPlaceResult,
  type AutoBidRejection,
  type AutoBidRejectionOnSet,
  type AutoBidSetResult,
  type AutoBidStatus,
} from './types.ts'

/** The engine's auto-bidder (docs/decisions/015-auto-bidder.md). */
export class EngineAutoBids extends EngineBids {
  /** Reserves `bids` from the balance for the user's auto-bidder on an unfinished auction. */
  async setAutoBid(auctionId: string, userId: string, bids: number): Promise<AutoBidSetResult> {
    if (!Number.isSafeInteger(bids) || bids < 1 || bids > AUTO_BID_MAX)
      return { ok: false, reason: 'invalid_bids' }
    const k = this.keys
    const reply = await this.withUser(userId, () =>
      autoBidReserveScript.run(
        this.acked,
        {
          auction: k.auction(auctionId),
          user: k.user(userId),
          autoBids: k.autoBids(auctionId),
          autoBidIndex: k.autoBidIndex,
          outbox: k.outbox,
        },
        { auctionId, userId, bids },
      ),
    )
    if (reply === 'user_not_found') return { ok: false, reason: 'user_not_found' }
    if (reply.status !== 'ok') return { ok: false, reason: reply.reason as AutoBidRejectionOnSet }
    const result = {
      ok: true as const,
      balance: reply.balance,
      left: reply.left,
      placed: reply.placed,
    }
    this.emit('balance', { userId, balance: result.balance })
    this.emit('autobid', {
      auctionId,
      userId,
      status: { left: result.left, placed: result.placed },
    })
    await this.replication.confirm('auto-bid budget')
    return result
  }

  /** Stops the user's auto-bidder; what is left of its budget returns to the balance. */
  async stopAutoBid(
    auctionId: string,
    userId: string,
  ): Promise<
    | { ok: true; returned: number; balance: number }
    | { ok: false; reason: 'no_auto_bid' | 'user_not_found' }
  > {
    const k = this.keys
    const reply = await this.withUser(userId, () =>
      autoBidStopScript.run(
        this.redis,
        { user: k.user(userId), autoBids: k.autoBids(auctionId), outbox: k.outbox },
        { auctionId, userId },
      ),
    )
    if (reply === 'user_not_found') return { ok: false, reason: 'user_not_found' }
    if (reply.status !== 'ok') return { ok: false, reason: 'no_auto_bid' }
    this.emit('balance', { userId, balance: reply.balance })
    this.emit('autobid', { auctionId, userId, status: null })
    return { ok: true, returned: reply.returned, balance: reply.balance }
  }

  /** The user's auto-bidder on an auction, or null when none is running. */
  async getAutoBid(auctionId: string, userId: string): Promise<AutoBidStatus | null> {
    const [left, placed] = await this.redis.hmget(
      this.keys.autoBids(auctionId),
      `r:${userId}`,
      `p:${userId}`,
    )
    return left === null ? null : { left: Number(left), placed: Number(placed ?? 0) }
  }

  /** Every auto-bidder with bids left on an auction: userId -> bids left. */
  async getAutoBidBudgets(auctionId: string): Promise<Map<string, number>> {
    const all = await this.redis.hgetall(this.keys.autoBids(auctionId))
    const budgets = new Map<string, number>()
    for (const [field, value] of Object.entries(all)) {
      if (field.startsWith('r:') && Number(value) > 0) budgets.set(field.slice(2), Number(value))
    }
    return budgets
  }

  /** Auctions that hold auto-bid budgets (live, upcoming, or finished and not yet returned). */
  async getAutoBidAuctions(): Promise<string[]> {
    return this.redis.smembers(this.keys.autoBidIndex)
  }

  /** A bid placed by the auto-bidder: the same rules as a manual bid, paid from the budget. */
  async autoBid(auctionId: string, userId: string): Promise<AutoBidPlaceResult> {
    const keys = { ...this.bidKeys(auctionId, userId), autoBids: this.keys.autoBids(auctionId) }
    const reply = await this.withUser(userId, () =>
      autoBidScript.run(this.redis, keys, this.bidArgs(auctionId, userId)),
    )
    if (reply === 'user_not_found') return { ok: false, reason: 'user_not_found' }
    if (reply.status !== 'ok') return { ok: false, reason: reply.reason as AutoBidRejection }
    const { accepted } = reply
    this.emitBid(auctionId, userId, accepted, { bidder: userId, name: reply.name, bot: false })
    const status = await this.getAutoBid(auctionId, userId)
    this.emit('autobid', { auctionId, userId, status })
    return accepted
  }

  /**
   * Gives back every budget left on a finished (or deleted) auction, exactly once. Returns the
   * amounts given back per user; null while the auction is still running.
   */
  async returnAutoBids(auctionId: string): Promise<Map<string, number> | null> {
    const k = this.keys
    const keys = {
      auction: k.auction(auctionId),
      autoBids: k.autoBids(auctionId),
      autoBidIndex: k.autoBidIndex,
      outbox: k.outbox,
    }
    const returned = new Map<string, number>()
    for (const drop of [false, true]) {
      const reply = await autoBidReturnScript.run(this.redis, keys, {
        auctionId,
        base: k.base,
        drop: drop ? 1 : 0,
      })
      if (reply.status !== 'ok') return drop ? returned : null
      for (const { userId, amount, balance } of reply.returned) {
        returned.set(userId, amount)
        this.emit('balance', { userId, balance })
        this.emit('autobid', { auctionId, userId, status: null })
      }
      if (reply.missing.length === 0) break
      // Balances not in Redis are loaded and the rest returned; a user who no longer exists
      // has nothing left to return to.
      for (const userId of reply.missing) await this.loadUser(userId)
    }
    return returned
  }
}
