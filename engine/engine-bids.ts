import { EngineUsers } from './engine-users.ts'
import { bidScript, botBidScript, prebidScript } from './scripts.ts'
import {
  MIN_BID_INTERVAL_MS,
  RECENT_BIDS_KEPT,
  type BidAccepted,
  type BidRejection,
  type BidResult,
  type BotBidResult,
  type PrebidRejection,
  type PrebidResult,
} from './types.ts'

/** The engine's bids and prebids. */
export class EngineBids extends EngineUsers {
  /** A person's bid: costs one bid credit (docs/rules.md#bidding). */
  async bid(auctionId: string, userId: string): Promise<BidResult> {
    const reply = await this.withUser(userId, () =>
      bidScript.run(this.acked, this.bidKeys(auctionId, userId), this.bidArgs(auctionId, userId)),
    )
    if (reply === 'user_not_found') return { ok: false, reason: 'user_not_found' }
    // user_not_loaded too, when the balance left Redis between its load and the second try.
    if (reply.status !== 'ok') return { ok: false, reason: reply.reason as BidRejection }
    const { accepted } = reply
    this.emitBid(auctionId, userId, accepted, { bidder: userId, name: reply.name, bot: false })
    if (accepted.balance !== null) this.emit('balance', { userId, balance: accepted.balance })
    await this.replication.confirm('bid')
    return accepted
  }

  /** A bot's bid: no debit, never over its limit (0 = none), never outbidding itself. */
  async botBid(
    auctionId: string,
    bot: { id: string; name: string; limit: number },
  ): Promise<BotBidResult> {
    const k = this.keys
    const bidder = `bot:${bot.id}`
    const reply = await botBidScript.run(
      this.redis,
      {
        auction: k.auction(auctionId),
        botCounts: k.botCounts(auctionId),
        recentBids: k.recentBids(auctionId),
        outbox: k.outbox,
        bidders: k.bidders(auctionId),
      },
      {
        auctionId,
        bidder,
        botName: bot.name,
        botLimit: bot.limit,
        timerMs: this.timerMs,
        recentMax: RECENT_BIDS_KEPT,
      },
    )
    if (reply.status !== 'ok') return { ok: false, reason: reply.reason }
    this.emitBid(auctionId, null, reply.accepted, { bidder, name: bot.name, bot: true })
    return reply.accepted
  }

  /** The keys of a person's bid (the auto-bidder's adds its budgets). */
  protected bidKeys(auctionId: string, userId: string) {
    const k = this.keys
    return {
      auction: k.auction(auctionId),
      user: k.user(userId),
      recentBids: k.recentBids(auctionId),
      outbox: k.outbox,
      bidders: k.bidders(auctionId),
    }
  }

  protected bidArgs(auctionId: string, userId: string) {
    return {
      auctionId,
      userId,
      timerMs: this.timerMs,
      minIntervalMs: MIN_BID_INTERVAL_MS,
      recentMax: RECENT_BIDS_KEPT,
    }
  }

  /** Tells the listeners of a placed bid (the real-time updates). */
  protected emitBid(
    auctionId: string,
    userId: string | null,
    accepted: BidAccepted,
    by: { bidder: string; name: string; bot: boolean },
  ) {
    this.emit('bid', {
      auctionId,
      userId,
      state: accepted,
      bid: {
        id: accepted.bidId,
        bidder: by.bidder,
        name: by.name,
        bot: by.bot,
        prebid: false,
        price: accepted.price,
        at: accepted.at,
      },
    })
  }

  /** A prebid on an upcoming auction: one per user, costs one bid credit. */
  async prebid(auctionId: string, userId: string): Promise<PrebidResult> {
    const k = this.keys
    const reply = await this.withUser(userId, () =>
      prebidScript.run(
        this.acked,
        {
          auction: k.auction(auctionId),
          user: k.user(userId),
          prebids: k.prebids(auctionId),
          outbox: k.outbox,
        },
        { auctionId, userId },
      ),
    )
    if (reply === 'user_not_found') return { ok: false, reason: 'user_not_found' }
    if (reply.status !== 'ok') return { ok: false, reason: reply.reason as PrebidRejection }
    const result = {
      ok: true as const,
      prebidId: reply.prebidId,
      balance: reply.balance,
      prebids: reply.prebids,
      at: reply.at,
    }
    this.emit('prebid', { auctionId, userId, prebids: result.prebids })
    this.emit('balance', { userId, balance: result.balance })
    await this.replication.confirm('prebid')
    return result
  }
}
