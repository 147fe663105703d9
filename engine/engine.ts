import { EngineAutoBids } from './engine-autobids.ts'
import { readAuction, readUnfinishedAuctions, type AuctionLoad } from './load.ts'
import {
  endScript,
  loadAuctionScript,
  removeAuctionScript,
  sweepScript,
  type SweepResult,
} from './scripts-auctions.ts'
import { RECENT_BIDS_KEPT, type AuctionStatus } from './types.ts'

export { type EngineOptions } from './engine-core.ts'
export { type SweepResult } from './scripts-auctions.ts'

/**
 * How long an auction being deleted stays out of reach of a load: far longer than the refunds
 * of its prebids take to reach Postgres, whose rows a load would otherwise bring back.
 */
const AUCTION_DELETING_MS = 60 * 60 * 1000

/**
 * The bid engine's operations. Every one is a single Lua script (engine/lua/), so a bid, a
 * prebid, a credit and the end of an auction are serialized inside Redis and no race can split
 * them. Built up by concern (engine/engine-core.ts); this last part holds auctions and the sweep.
 */
export class Engine extends EngineAutoBids {
  /** Puts one auction from Postgres into Redis (after create/edit, or on start-up). */
  async loadAuction(auctionId: string): Promise<AuctionStatus | 'skipped' | null> {
    const auction = await readAuction(this.prisma, auctionId)
    if (!auction) return null
    const loaded = await this.putAuction(auction)
    await this.catalogChanged()
    return loaded
  }

  /** Says that auction rows in Postgres changed (see keys.catalog). */
  async catalogChanged(): Promise<void> {
    await this.redis.incr(this.keys.catalog)
  }

  /** The current value of keys.catalog: equal values, same auction rows. */
  async catalogVersion(): Promise<string> {
    return (await this.redis.get(this.keys.catalog)) ?? '0'
  }

  /** Loads every auction that is not finished; returns how many. */
  async loadAllAuctions(): Promise<number> {
    let count = 0
    for await (const auction of readUnfinishedAuctions(this.prisma)) {
      await this.putAuction(auction)
      count += 1
    }
    return count
  }

  private async putAuction(auction: AuctionLoad): Promise<AuctionStatus | 'skipped'> {
    const k = this.keys
    const { id, botCounts, prebidders, budgets } = auction
    return loadAuctionScript.run(
      this.redis,
      {
        auction: k.auction(id),
        upcoming: k.upcoming,
        ending: k.ending,
        bidders: k.bidders(id),
        botCounts: k.botCounts(id),
        prebids: k.prebids(id),
        autoBids: k.autoBids(id),
        autoBidIndex: k.autoBidIndex,
        deleting: k.deleting(id),
      },
      {
        auctionId: id,
        status: auction.status,
        price: auction.price,
        increment: auction.increment,
        startTime: auction.startTime,
        bids: auction.bids,
        lastBidder: auction.lastBidder,
        lastBidderName: auction.lastBidderName,
        lastBidderIsBot: auction.lastBidderIsBot ? '1' : '0',
        meta: JSON.stringify(auction.meta),
        timerMs: this.timerMs,
        botBids: auction.botBids,
        botCounts: botCounts.length,
        prebidders: prebidders.length,
        budgets: budgets.length,
      },
      [
        ...botCounts.flatMap(([bidder, bids]) => [bidder, String(bids)]),
        ...prebidders,
        ...budgets.flatMap((b) => [b.userId, String(b.left), String(b.placed)]),
        ...auction.bidders,
      ],
    )
  }

  /**
   * Takes an auction out of Redis (admin delete) if it is still as the admin saw it (`seen`);
   * otherwise (an upcoming one started meanwhile) leaves it and answers the status it has.
   * Its prebids and auto-bid budgets go with it, and it is not loaded again for a while: what
   * they owe people is paid from Postgres (engine/refunds.ts) once the outbox has written
   * everything up to `through`, the newest entry at that moment ('' when none).
   */
  async removeAuction(
    auctionId: string,
    seen: 'upcoming' | 'finished',
  ): Promise<{ ok: true; status: string; through: string } | { ok: false; status: string }> {
    const k = this.keys
    return removeAuctionScript.run(
      this.redis,
      {
        auction: k.auction(auctionId),
        upcoming: k.upcoming,
        ending: k.ending,
        recentBids: k.recentBids(auctionId),
        prebids: k.prebids(auctionId),
        botCounts: k.botCounts(auctionId),
        bidders: k.bidders(auctionId),
        autoBids: k.autoBids(auctionId),
        autoBidIndex: k.autoBidIndex,
        deleting: k.deleting(auctionId),
        outbox: k.outbox,
      },
      { auctionId, seen, ms: AUCTION_DELETING_MS },
    )
  }

  /** Whether every outbox entry up to `entryId` is written to Postgres (written ones leave). */
  async outboxWrittenThrough(entryId: string): Promise<boolean> {
    if (!entryId) return true
    return (await this.redis.xrange(this.keys.outbox, '-', entryId, 'COUNT', 1)).length === 0
  }

  /** An admin ends a live auction now; the last bidder wins. */
  async endAuction(
    auctionId: string,
  ): Promise<{ ok: true } | { ok: false; reason: 'auction_not_found' | 'auction_not_live' }> {
    const k = this.keys
    const reply = await endScript.run(
      this.redis,
      { auction: k.auction(auctionId), ending: k.ending, outbox: k.outbox },
      { auctionId, base: k.base, finishedTtlMs: this.finishedTtlMs },
    )
    if (reply.status !== 'ok') return { ok: false, reason: reply.reason }
    this.emit('finished', { auctionIds: [auctionId] })
    return { ok: true }
  }

  /** Starts and finishes what is due; the sweeper calls this in a loop. */
  async sweep(limit = 100): Promise<SweepResult> {
    const k = this.keys
    const result = await sweepScript.run(
      this.redis,
      { upcoming: k.upcoming, ending: k.ending, outbox: k.outbox },
      {
        base: k.base,
        timerMs: this.timerMs,
        recentMax: RECENT_BIDS_KEPT,
        limit,
        finishedTtlMs: this.finishedTtlMs,
      },
    )
    if (result.started.length) this.emit('started', { auctionIds: result.started })
    if (result.finished.length) this.emit('finished', { auctionIds: result.finished })
    return result
  }
}
