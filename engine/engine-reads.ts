import { EngineCore } from './engine-core.ts'
import { STATE_FIELDS, auctionViewScript, parseState, timersScript } from './scripts-auctions.ts'
import { RECENT_BIDS_KEPT, type AuctionMeta, type AuctionState, type RecentBid } from './types.ts'

/** Parsed recent-bid rows an engine keeps (a few per live auction, ~300 bytes each). */
const RECENT_BID_ROWS_KEPT = 20_000

/** The engine's reads of auctions and the clock. */
export class EngineReads extends EngineCore {
  /**
   * Recent bids by their stored row: every update of an auction reads its newest bids again,
   * nearly all of them read before. Shared objects: read, never changed.
   */
  private readonly recentBidsByRow = new Map<string, RecentBid>()

  async getState(auctionId: string): Promise<AuctionState | null> {
    return (await this.getStates([auctionId]))[0] ?? null
  }

  /** Live states, in the order asked; null where Redis does not hold the auction. */
  async getStates(auctionIds: string[]): Promise<Array<AuctionState | null>> {
    if (auctionIds.length === 0) return []
    const pipeline = this.redis.pipeline()
    for (const id of auctionIds) {
      pipeline.hmget(this.keys.auction(id), ...STATE_FIELDS)
    }
    const replies = (await pipeline.exec()) ?? []
    return auctionIds.map((id, index) => {
      const [error, value] = replies[index] ?? [null, null]
      if (error) throw error
      return parseState(id, value as Array<string | null>)
    })
  }

  /**
   * One auction as a real-time update shows it, in one round trip: the clock, its live state,
   * its meta and the newest `limit` bids, all read at the same moment. Null when Redis does
   * not hold the auction.
   */
  async getAuctionView(
    auctionId: string,
    limit: number,
  ): Promise<{
    at: number
    state: AuctionState
    meta: AuctionMeta | null
    bids: RecentBid[]
  } | null> {
    const view = await auctionViewScript.run(
      this.redis,
      { auction: this.keys.auction(auctionId), recentBids: this.keys.recentBids(auctionId) },
      { limit },
    )
    const state = parseState(auctionId, view.fields)
    if (!state) return null
    return {
      at: view.at,
      state,
      meta: view.meta ? (JSON.parse(view.meta) as AuctionMeta) : null,
      bids: view.rows.map((row) => this.recentBid(row)),
    }
  }

  /**
   * A live auction's bid counts as its page shows them (docs/rules.md#auction-page): all bids,
   * the house's, and how many people and bots have bid. Null unless Redis holds it live.
   */
  async getBidStats(auctionId: string): Promise<{
    totalBids: number
    botBids: number
    userBids: number
    uniqueParticipants: number
  } | null> {
    const replies =
      (await this.redis
        .pipeline()
        .hmget(this.keys.auction(auctionId), 'status', 'bids', 'botBids')
        .scard(this.keys.bidders(auctionId))
        .exec()) ?? []
    for (const [error] of replies) if (error) throw error
    const [status, bids, botBids] = (replies[0]?.[1] ?? []) as Array<string | null>
    if (status !== 'live') return null
    const totalBids = Number(bids || 0)
    const house = Number(botBids || 0)
    return {
      totalBids,
      botBids: house,
      userBids: totalBids - house,
      uniqueParticipants: Number(replies[1]?.[1] ?? 0),
    }
  }

  async getMeta(auctionId: string): Promise<AuctionMeta | null> {
    const raw = await this.redis.hget(this.keys.auction(auctionId), 'meta')
    return raw ? (JSON.parse(raw) as AuctionMeta) : null
  }

  /** The newest bids first. */
  async getRecentBids(auctionId: string, limit = RECENT_BIDS_KEPT): Promise<RecentBid[]> {
    const rows = await this.redis.lrange(this.keys.recentBids(auctionId), 0, limit - 1)
    return rows.map((row) => this.recentBid(row))
  }

  private recentBid(row: string): RecentBid {
    let bid = this.recentBidsByRow.get(row)
    if (!bid) {
      // Rows of bids long gone from every list are dropped all at once now and then.
      if (this.recentBidsByRow.size >= RECENT_BID_ROWS_KEPT) this.recentBidsByRow.clear()
      bid = JSON.parse(row) as RecentBid
      this.recentBidsByRow.set(row, bid)
    }
    return bid
  }

  async hasPrebid(auctionId: string, userId: string): Promise<boolean> {
    return (await this.redis.zscore(this.keys.prebids(auctionId), userId)) !== null
  }

  /** Redis server time in ms: the engine's only clock. */
  async now(): Promise<number> {
    const [seconds, micros] = await this.redis.time()
    return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000)
  }

  /** Milliseconds left on every live auction's timer (docs/rules.md#calls). */
  async getTimers(): Promise<{ at: number; timers: Record<string, number> }> {
    return timersScript.run(this.redis, { ending: this.keys.ending }, { base: this.keys.base })
  }
}
