import { bidsToday, setLimits, type Limits } from './limits.ts'
import { EventEmitter } from 'node:events'
import type { Redis } from 'ioredis'
import type { PrismaClient } from '../prisma/generated/client.ts'
import * as auctions from './auctions.ts'
import * as autoBids from './auto-bids.ts'
import * as balances from './balances.ts'
import * as bidding from './bids.ts'
import { createEngineContext, type EngineContext, type EngineOptions } from './context.ts'
import type { Keys } from './keys.ts'
import { loadScripts } from './lua-runner.ts'
import * as reads from './reads.ts'
import type { Replication } from './replicas.ts'
import type { BalanceAdjustment, EngineEvents, LedgerReason, Logger } from './types.ts'
import * as users from './users.ts'

export { type EngineOptions } from './context.ts'
export { type SweepResult } from './auctions.ts'

/**
 * The bid engine's operations. Every one is a single Lua script (engine/lua/), so a bid, a
 * prebid, a credit and the end of an auction are serialized inside Redis and no race can split
 * them. Each operation is a function of its concern's module over the shared context
 * (engine/context.ts), where it is described; Engine holds the context, names the operations as
 * its methods and is the emitter of their events.
 */
export class Engine extends EventEmitter<EngineEvents> {
  readonly redis: Redis
  readonly prisma: PrismaClient
  readonly keys: Keys
  readonly log: Logger
  readonly timerMs: number
  /** Bids, prebids, credits, adjustments and auto-bid budgets: acknowledged once replicated. */
  readonly replication: Replication
  private readonly context: EngineContext

  constructor(options: EngineOptions) {
    super()
    const context = createEngineContext(options, this)
    this.context = context
    this.redis = context.redis
    this.prisma = context.prisma
    this.keys = context.keys
    this.log = context.log
    this.timerMs = context.timerMs
    this.replication = context.replication
  }

  /** Closes the connection of its own that acknowledged writes use when they wait for replicas. */
  async close() {
    await this.replication.close()
  }

  /** Loads every script into Redis (later calls also recover from NOSCRIPT by themselves). */
  async loadScripts() {
    await loadScripts(this.redis)
  }

  // Reads of auctions and the clock: engine/reads.ts.

  getState(auctionId: string) {
    return reads.getState(this.context, auctionId)
  }

  getStates(auctionIds: string[]) {
    return reads.getStates(this.context, auctionIds)
  }

  getAuctionView(auctionId: string, limit: number) {
    return reads.getAuctionView(this.context, auctionId, limit)
  }

  getBidStats(auctionId: string) {
    return reads.getBidStats(this.context, auctionId)
  }

  getMeta(auctionId: string) {
    return reads.getMeta(this.context, auctionId)
  }

  getRecentBids(auctionId: string, limit?: number) {
    return reads.getRecentBids(this.context, auctionId, limit)
  }

  hasPrebid(auctionId: string, userId: string) {
    return reads.hasPrebid(this.context, auctionId, userId)
  }

  now() {
    return reads.now(this.context)
  }

  getTimers() {
    return reads.getTimers(this.context)
  }

  // Users in Redis: engine/users.ts.

  getBalance(userId: string) {
    return users.getBalance(this.context, userId)
  }

  loadUser(userId: string) {
    return users.loadUser(this.context, userId)
  }

  removeUser(userId: string) {
    return users.removeUser(this.context, userId)
  }

  refreshUserName(userId: string, username: string) {
    return users.refreshUserName(this.context, userId, username)
  }

  // Fair play and a bidder's own limits: engine/lua/shared/rules.lua, engine/limits.ts.

  /** The win limit's settings, after an admin saved them. */
  loadRules() {
    return users.loadRules(this.context)
  }

  /** A person's changed limits, enforced from now on. */
  setLimits(userId: string, limits: Limits) {
    return setLimits(this.context, userId, limits)
  }

  /** Today's bids and prebids of a person whose balance is in Redis (0 if not). */
  bidsToday(userId: string) {
    return bidsToday(this.context, userId)
  }

  // Changes of a balance: engine/balances.ts.

  credit(
    userId: string,
    amount: number,
    reason: LedgerReason,
    reference: string,
    auctionId?: string,
  ) {
    return balances.credit(this.context, userId, amount, reason, reference, auctionId)
  }

  takeBack(userId: string, most: number, reference: string) {
    return balances.takeBack(this.context, userId, most, reference)
  }

  adjustBalance(userId: string, change: BalanceAdjustment) {
    return balances.adjustBalance(this.context, userId, change)
  }

  applied(reference: string) {
    return balances.applied(this.context, reference)
  }

  // Bids and prebids: engine/bids.ts.

  bid(auctionId: string, userId: string) {
    return bidding.bid(this.context, auctionId, userId)
  }

  botBid(auctionId: string, bot: Parameters<typeof bidding.botBid>[2]) {
    return bidding.botBid(this.context, auctionId, bot)
  }

  prebid(auctionId: string, userId: string) {
    return bidding.prebid(this.context, auctionId, userId)
  }

  // The auto-bidder: engine/auto-bids.ts.

  setAutoBid(auctionId: string, userId: string, bids: number) {
    return autoBids.setAutoBid(this.context, auctionId, userId, bids)
  }

  stopAutoBid(auctionId: string, userId: string) {
    return autoBids.stopAutoBid(this.context, auctionId, userId)
  }

  getAutoBid(auctionId: string, userId: string) {
    return autoBids.getAutoBid(this.context, auctionId, userId)
  }

  getAutoBidBudgets(auctionId: string) {
    return autoBids.getAutoBidBudgets(this.context, auctionId)
  }

  getAutoBidAuctions() {
    return autoBids.getAutoBidAuctions(this.context)
  }

  autoBid(auctionId: string, userId: string) {
    return autoBids.autoBid(this.context, auctionId, userId)
  }

  returnAutoBids(auctionId: string) {
    return autoBids.returnAutoBids(this.context, auctionId)
  }

  // Auctions and the sweep: engine/auctions.ts.

  loadAuction(auctionId: string) {
    return auctions.loadAuction(this.context, auctionId)
  }

  catalogChanged() {
    return auctions.catalogChanged(this.context)
  }

  catalogVersion() {
    return auctions.catalogVersion(this.context)
  }

  loadAllAuctions() {
    return auctions.loadAllAuctions(this.context)
  }

  removeAuction(auctionId: string, seen: 'upcoming' | 'finished') {
    return auctions.removeAuction(this.context, auctionId, seen)
  }

  outboxWrittenThrough(entryId: string) {
    return auctions.outboxWrittenThrough(this.context, entryId)
  }

  endAuction(auctionId: string) {
    return auctions.endAuction(this.context, auctionId)
  }

  sweep(limit?: number) {
    return auctions.sweep(this.context, limit)
  }
}
