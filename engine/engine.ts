import { EventEmitter } from 'node:events'
import type { Redis } from 'ioredis'
import type { PrismaClient } from '../prisma/generated/client.ts'
import { autoBidReserveLua, autoBidReturnLua, autoBidStopLua } from './autobid-lua.ts'
import { createKeys, type Keys } from './keys.ts'
import { readAuction, readUnfinishedAuctions, readUser, type AuctionLoad } from './load.ts'
import {
  STATE_FIELDS,
  auctionViewLua,
  bidLua,
  adjustBalanceLua,
  creditLua,
  endLua,
  loadAuctionLua,
  loadUserLua,
  prebidLua,
  removeAuctionLua,
  removeUserLua,
  sweepLua,
  timersLua,
} from './lua.ts'
import { Replication, type ReplicaOptions } from './replicas.ts'
import { Script } from './script.ts'
import {
  BID_TIMER_MS,
  MIN_BID_INTERVAL_MS,
  RECENT_BIDS_KEPT,
  silentLogger,
  AUTO_BID_MAX,
  ADMIN_BALANCE_MAX,
  type AdjustResult,
  type AuctionMeta,
  type AuctionState,
  type AutoBidPlaceResult,
  type AutoBidSetResult,
  type AutoBidStatus,
  type BalanceAdjustment,
  type AuctionStatus,
  type BidAccepted,
  type BidResult,
  type BotBidResult,
  type CreditResult,
  type EngineEvents,
  type LedgerReason,
  type Logger,
  type PrebidResult,
  type RecentBid,
} from './types.ts'

const scripts = {
  bid: new Script('bid', bidLua),
  prebid: new Script('prebid', prebidLua),
  sweep: new Script('sweep', sweepLua),
  end: new Script('end', endLua),
  credit: new Script('credit', creditLua),
  adjustBalance: new Script('adjustBalance', adjustBalanceLua),
  loadUser: new Script('loadUser', loadUserLua),
  loadAuction: new Script('loadAuction', loadAuctionLua),
  removeAuction: new Script('removeAuction', removeAuctionLua),
  removeUser: new Script('removeUser', removeUserLua),
  timers: new Script('timers', timersLua),
  auctionView: new Script('auctionView', auctionViewLua),
  autoBidReserve: new Script('autoBidReserve', autoBidReserveLua),
  autoBidStop: new Script('autoBidStop', autoBidStopLua),
  autoBidReturn: new Script('autoBidReturn', autoBidReturnLua),
}

export type EngineOptions = {
  redis: Redis
  prisma: PrismaClient
  /** Key prefix; every key is under the hash tag `{prefix}`. */
  prefix: string
  log?: Logger
  /** How long finished auctions stay in Redis for late readers. */
  finishedTtlMs?: number
  /** The bid timer; docs/rules.md#bidding fixes it at 10 s, tests shorten it. */
  timerMs?: number
  /** Replicas that must hold an acknowledged write (Redis WAIT); none by default. */
  replicas?: ReplicaOptions
}

export type SweepResult = {
  now: number
  nextStart: number | null
  nextDeadline: number | null
  started: string[]
  finished: string[]
}

type Reply = string[]

/**
 * How long a deleted account's marker stays in Redis: far longer than its Postgres row takes
 * to go, so a copy of that row read just before cannot bring the balance back.
 */
const USER_GONE_MS = 60 * 60 * 1000

/**
 * How long an auction being deleted stays out of reach of a load: far longer than the refunds
 * of its prebids take to reach Postgres, whose rows a load would otherwise bring back.
 */
const AUCTION_DELETING_MS = 60 * 60 * 1000

/** An auction's live fields as HMGET returns them (STATE_FIELDS); missing ones are null or ''. */
function parseState(id: string, f: Array<string | null>): AuctionState | null {
  if (!f[0]) return null
  return {
    id,
    status: f[0] as AuctionStatus,
    price: Number(f[1]),
    increment: Number(f[2]),
    startTime: Number(f[3]),
    deadline: f[0] === 'live' && f[4] ? Number(f[4]) : null,
    endedAt: f[5] ? Number(f[5]) : null,
    lastBidder: f[6] || null,
    lastBidderName: f[7] || null,
    lastBidderIsBot: f[8] === '1',
    bids: Number(f[9] || 0),
    prebids: Number(f[10] || 0),
  }
}
const num = (value: string | undefined) => Number(value ?? 0)

/** Parsed recent-bid rows an engine keeps (a few per live auction, ~300 bytes each). */
const RECENT_BID_ROWS_KEPT = 20_000

/**
 * The bid engine's operations. Every one is a single Lua script, so a bid, a prebid, a credit
 * and the end of an auction are serialized inside Redis and no race can split them.
 */
export class Engine extends EventEmitter<EngineEvents> {
  readonly keys: Keys
  readonly redis: Redis
  readonly prisma: PrismaClient
  readonly log: Logger
  private readonly finishedTtlMs: number
  readonly timerMs: number
  /** Bids, prebids, credits, adjustments and auto-bid budgets: acknowledged once replicated. */
  readonly replication: Replication
  /**
   * Recent bids by their stored row: every update of an auction reads its newest bids again,
   * nearly all of them read before. Shared objects: read, never changed.
   */
  private readonly recentBidsByRow = new Map<string, RecentBid>()

  constructor(options: EngineOptions) {
    super()
    this.redis = options.redis
    this.prisma = options.prisma
    this.keys = createKeys(options.prefix)
    this.log = options.log ?? silentLogger
    this.finishedTtlMs = options.finishedTtlMs ?? 6 * 60 * 60 * 1000
    this.timerMs = options.timerMs ?? BID_TIMER_MS
    this.replication = new Replication(this.redis, options.replicas)
  }

  /** Closes the connection of its own that acknowledged writes use when they wait for replicas. */
  async close() {
    await this.replication.close()
  }

  /** Loads every script into Redis (later calls also recover from NOSCRIPT by themselves). */
  async loadScripts() {
    await Promise.all(Object.values(scripts).map((script) => script.load(this.redis)))
  }

  // --- bids -------------------------------------------------------------------------------

  /** A person's bid: costs one bid credit (docs/rules.md#bidding). */
  async bid(auctionId: string, userId: string): Promise<BidResult> {
    const reply = await this.withUser(userId, () =>
      scripts.bid.run<Reply>(this.acked, this.bidKeys(auctionId, this.keys.user(userId)), [
        auctionId,
        userId,
        0,
        '',
        0,
        this.timerMs,
        MIN_BID_INTERVAL_MS,
        RECENT_BIDS_KEPT,
        1,
      ]),
    )
    if (reply === 'user_not_found') return { ok: false, reason: 'user_not_found' }
    if (reply[0] !== 'ok') return { ok: false, reason: reply[1] as never }
    const accepted = this.accepted(reply)
    this.emit('bid', {
      auctionId,
      userId,
      state: accepted,
      bid: {
        id: accepted.bidId,
        bidder: userId,
        name: reply[7] ?? '',
        bot: false,
        prebid: false,
        price: accepted.price,
        at: accepted.at,
      },
    })
    if (accepted.balance !== null) this.emit('balance', { userId, balance: accepted.balance })
    await this.replication.confirm('bid')
    return accepted
  }

  /** A bot's bid: no debit, never over its limit (0 = none), never outbidding itself. */
  async botBid(
    auctionId: string,
    bot: { id: string; name: string; limit: number },
  ): Promise<BotBidResult> {
    const bidder = `bot:${bot.id}`
    const reply = await scripts.bid.run<Reply>(
      this.redis,
      this.bidKeys(auctionId, this.keys.botCounts(auctionId)),
      [auctionId, bidder, 1, bot.name, bot.limit, this.timerMs, 0, RECENT_BIDS_KEPT, 0],
    )
    if (reply[0] !== 'ok') return { ok: false, reason: reply[1] as never }
    const accepted = this.accepted(reply)
    this.emit('bid', {
      auctionId,
      userId: null,
      state: accepted,
      bid: {
        id: accepted.bidId,
        bidder,
        name: bot.name,
        bot: true,
        prebid: false,
        price: accepted.price,
        at: accepted.at,
      },
    })
    return accepted
  }

  /** The connection of the acknowledged writes (the main one unless they wait for replicas). */
  private get acked() {
    return this.replication.redis
  }

  private bidKeys(auctionId: string, bidderKey: string) {
    const k = this.keys
    return [
      k.auction(auctionId),
      bidderKey,
      k.recentBids(auctionId),
      k.outbox,
      k.bidders(auctionId),
    ]
  }

  private accepted(reply: Reply): BidAccepted {
    const balance = num(reply[5])
    return {
      ok: true,
      bidId: reply[1]!,
      price: num(reply[2]),
      deadline: num(reply[3]),
      bids: num(reply[4]),
      balance: balance < 0 ? null : balance,
      at: num(reply[6]),
    }
  }

  // --- auto-bidder (docs/decisions/015-auto-bidder.md) ------------------------------------

  /** Reserves `bids` from the balance for the user's auto-bidder on an unfinished auction. */
  async setAutoBid(auctionId: string, userId: string, bids: number): Promise<AutoBidSetResult> {
    if (!Number.isSafeInteger(bids) || bids < 1 || bids > AUTO_BID_MAX)
      return { ok: false, reason: 'invalid_bids' }
    const k = this.keys
    const reply = await this.withUser(userId, () =>
      scripts.autoBidReserve.run<Reply>(
        this.acked,
        [k.auction(auctionId), k.user(userId), k.autoBids(auctionId), k.autoBidIndex, k.outbox],
        [auctionId, userId, bids],
      ),
    )
    if (reply === 'user_not_found') return { ok: false, reason: 'user_not_found' }
    if (reply[0] !== 'ok') return { ok: false, reason: reply[1] as never }
    const result = {
      ok: true as const,
      balance: num(reply[2]),
      left: num(reply[3]),
      placed: num(reply[4]),
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
      scripts.autoBidStop.run<Reply>(
        this.redis,
        [k.user(userId), k.autoBids(auctionId), k.outbox],
        [auctionId, userId],
      ),
    )
    if (reply === 'user_not_found') return { ok: false, reason: 'user_not_found' }
    if (reply[0] !== 'ok') return { ok: false, reason: 'no_auto_bid' }
    const balance = num(reply[2])
    this.emit('balance', { userId, balance })
    this.emit('autobid', { auctionId, userId, status: null })
    return { ok: true, returned: num(reply[3]), balance }
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
    const k = this.keys
    const reply = await this.withUser(userId, () =>
      scripts.bid.run<Reply>(
        this.redis,
        [...this.bidKeys(auctionId, k.user(userId)), k.autoBids(auctionId)],
        [auctionId, userId, 0, '', 0, this.timerMs, MIN_BID_INTERVAL_MS, RECENT_BIDS_KEPT, 0, 1],
      ),
    )
    if (reply === 'user_not_found') return { ok: false, reason: 'user_not_found' }
    if (reply[0] !== 'ok') return { ok: false, reason: reply[1] as never }
    const accepted = this.accepted(reply)
    this.emit('bid', {
      auctionId,
      userId,
      state: accepted,
      bid: {
        id: accepted.bidId,
        bidder: userId,
        name: reply[7] ?? '',
        bot: false,
        prebid: false,
        price: accepted.price,
        at: accepted.at,
      },
    })
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
    const run = (drop: boolean) =>
      scripts.autoBidReturn.run<string[]>(
        this.redis,
        [k.auction(auctionId), k.autoBids(auctionId), k.autoBidIndex, k.outbox],
        [auctionId, k.base, drop ? 1 : 0],
      )
    const returned = new Map<string, number>()
    for (const drop of [false, true]) {
      const reply = await run(drop)
      if (reply[0] !== 'ok') return drop ? returned : null
      const split = reply.indexOf('|')
      for (let i = 1; i < split; i += 3) {
        const userId = reply[i]!
        returned.set(userId, num(reply[i + 1]))
        this.emit('balance', { userId, balance: num(reply[i + 2]) })
        this.emit('autobid', { auctionId, userId, status: null })
      }
      const missing = reply.slice(split + 1)
      if (missing.length === 0) break
      // Balances not in Redis are loaded and the rest returned; a user who no longer exists
      // has nothing left to return to.
      for (const userId of missing) await this.loadUser(userId)
    }
    return returned
  }

  /** A prebid on an upcoming auction: one per user, costs one bid credit. */
  async prebid(auctionId: string, userId: string): Promise<PrebidResult> {
    const k = this.keys
    const reply = await this.withUser(userId, () =>
      scripts.prebid.run<Reply>(
        this.acked,
        [k.auction(auctionId), k.user(userId), k.prebids(auctionId), k.outbox],
        [auctionId, userId],
      ),
    )
    if (reply === 'user_not_found') return { ok: false, reason: 'user_not_found' }
    if (reply[0] !== 'ok') return { ok: false, reason: reply[1] as never }
    const result = {
      ok: true as const,
      prebidId: reply[1]!,
      balance: num(reply[2]),
      prebids: num(reply[3]),
      at: num(reply[4]),
    }
    this.emit('prebid', { auctionId, userId, prebids: result.prebids })
    this.emit('balance', { userId, balance: result.balance })
    await this.replication.confirm('prebid')
    return result
  }

  // --- balances ---------------------------------------------------------------------------

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
      scripts.credit.run<Reply>(
        this.acked,
        [k.user(userId), k.references, k.outbox],
        [userId, amount, reason, reference, auctionId],
      ),
    )
    if (reply === 'user_not_found') return { ok: false, reason: 'user_not_found' }
    const balance = num(reply[2])
    if (reply[0] === 'ok') this.emit('balance', { userId, balance })
    // A replay too: the first answer may have been a NotReplicated one.
    await this.replication.confirm('credit')
    return { ok: true, applied: reply[0] === 'ok', balance }
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
      scripts.adjustBalance.run<Reply>(
        this.acked,
        [k.user(userId), k.references, k.outbox],
        [
          userId,
          target ?? delta,
          reference,
          adminId,
          note,
          expected ?? '',
          ADMIN_BALANCE_MAX,
          target === undefined ? 'add' : 'set',
        ],
      ),
    )
    if (reply === 'user_not_found') return { ok: false, reason: 'user_not_found' }
    const balance = num(reply[2])
    if (reply[0] === 'below_zero' || reply[0] === 'above_max' || reply[0] === 'stale')
      return { ok: false, reason: reply[0], balance }
    if (reply[0] === 'ok') this.emit('balance', { userId, balance })
    await this.replication.confirm('balance adjustment')
    return { ok: true, applied: reply[0] === 'ok', balance }
  }

  /** The user's bid balance (hot in Redis; loaded from Postgres on first use). */
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
    const [loaded] = await scripts.loadUser.run<Reply>(
      this.redis,
      [this.keys.user(userId)],
      [user.balance, user.name],
    )
    return loaded !== 'gone'
  }

  /**
   * Takes a deleted account out of the engine at once, in one atomic step: its balance, its
   * prebids on upcoming auctions (refunded to no one, and no longer counted) and its
   * auto-bidders' budgets. From then on its bids, prebids and credits answer user_not_found.
   * Called before its Postgres row goes (app/models/admin-users.server.ts).
   */
  async removeUser(userId: string): Promise<{ prebids: Map<string, number>; autoBids: string[] }> {
    const k = this.keys
    const [count, ...rest] = await scripts.removeUser.run<Reply>(
      this.redis,
      [k.user(userId), k.upcoming, k.autoBidIndex],
      [k.base, userId, USER_GONE_MS],
    )
    const prebids = new Map<string, number>()
    const pairs = 2 * num(count)
    for (let i = 0; i < pairs; i += 2) prebids.set(rest[i]!, num(rest[i + 1]))
    const autoBids = rest.slice(pairs)
    for (const [auctionId, left] of prebids)
      this.emit('prebid', { auctionId, userId, prebids: left })
    for (const auctionId of autoBids) this.emit('autobid', { auctionId, userId, status: null })
    return { prebids, autoBids }
  }

  /** Keeps the name shown in bid lists in step with a renamed user. */
  async refreshUserName(userId: string, username: string) {
    const key = this.keys.user(userId)
    if (await this.redis.exists(key)) await this.redis.hset(key, 'name', username)
  }

  /** Runs a script that needs the user's balance in Redis, loading it once when missing. */
  private async withUser(
    userId: string,
    call: () => Promise<Reply>,
  ): Promise<Reply | 'user_not_found'> {
    const reply = await call()
    if (reply[0] !== 'err' || reply[1] !== 'user_not_loaded') return reply
    if (!(await this.loadUser(userId))) return 'user_not_found'
    return call()
  }

  // --- auctions ---------------------------------------------------------------------------

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
    return (await scripts.loadAuction.run<string>(
      this.redis,
      [
        k.auction(id),
        k.upcoming,
        k.ending,
        k.bidders(id),
        k.botCounts(id),
        k.prebids(id),
        k.autoBids(id),
        k.autoBidIndex,
        k.deleting(id),
      ],
      [
        id,
        auction.status,
        auction.price,
        auction.increment,
        auction.startTime,
        auction.bids,
        auction.lastBidder,
        auction.lastBidderName,
        auction.lastBidderIsBot ? '1' : '0',
        JSON.stringify(auction.meta),
        this.timerMs,
        auction.botBids,
        botCounts.length,
        prebidders.length,
        budgets.length,
        ...botCounts.flatMap(([bidder, bids]) => [bidder, String(bids)]),
        ...prebidders,
        ...budgets.flatMap((b) => [b.userId, String(b.left), String(b.placed)]),
        ...auction.bidders,
      ],
    )) as AuctionStatus | 'skipped'
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
    const [result, status = '', through = ''] = await scripts.removeAuction.run<string[]>(
      this.redis,
      [
        k.auction(auctionId),
        k.upcoming,
        k.ending,
        k.recentBids(auctionId),
        k.prebids(auctionId),
        k.botCounts(auctionId),
        k.bidders(auctionId),
        k.autoBids(auctionId),
        k.autoBidIndex,
        k.deleting(auctionId),
        k.outbox,
      ],
      [auctionId, seen, AUCTION_DELETING_MS],
    )
    if (result !== 'ok') return { ok: false, status }
    return { ok: true, status, through }
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
    const reply = await scripts.end.run<Reply>(
      this.redis,
      [k.auction(auctionId), k.ending, k.outbox],
      [auctionId, k.base, this.finishedTtlMs],
    )
    if (reply[0] !== 'ok')
      return { ok: false, reason: reply[1] as 'auction_not_found' | 'auction_not_live' }
    this.emit('finished', { auctionIds: [auctionId] })
    return { ok: true }
  }

  /** Starts and finishes what is due; the sweeper calls this in a loop. */
  async sweep(limit = 100): Promise<SweepResult> {
    const k = this.keys
    const reply = await scripts.sweep.run<Reply>(
      this.redis,
      [k.upcoming, k.ending, k.outbox],
      [k.base, this.timerMs, RECENT_BIDS_KEPT, limit, this.finishedTtlMs],
    )
    const list = (value: string | undefined) => (value ? value.split(',') : [])
    const result: SweepResult = {
      now: num(reply[0]),
      nextStart: reply[1] ? num(reply[1]) : null,
      nextDeadline: reply[2] ? num(reply[2]) : null,
      started: list(reply[3]),
      finished: list(reply[4]),
    }
    if (result.started.length) this.emit('started', { auctionIds: result.started })
    if (result.finished.length) this.emit('finished', { auctionIds: result.finished })
    return result
  }

  // --- reads ------------------------------------------------------------------------------

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
    const reply = await scripts.auctionView.run<string[]>(
      this.redis,
      [this.keys.auction(auctionId), this.keys.recentBids(auctionId)],
      [limit],
    )
    const fields = STATE_FIELDS.length
    const state = parseState(auctionId, reply.slice(1, 1 + fields))
    if (!state) return null
    const meta = reply[1 + fields]
    return {
      at: Number(reply[0]),
      state,
      meta: meta ? (JSON.parse(meta) as AuctionMeta) : null,
      bids: reply.slice(2 + fields).map((row) => this.recentBid(row)),
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
    const [now, ...entries] = await scripts.timers.run<string[]>(
      this.redis,
      [this.keys.ending],
      [this.keys.base],
    )
    const at = Number(now)
    const timers: Record<string, number> = {}
    for (let i = 0; i < entries.length; i += 2) {
      timers[entries[i]!] = Math.max(0, Number(entries[i + 1]) - at)
    }
    return { at, timers }
  }
}
