import type { Engine } from './engine.ts'
import { RULE_REFUSALS, type AutoBidRejection } from './types.ts'

const TICK_MS = 100
/** An auto-bidder bids once the timer shows less than this (DealDash-style last seconds). */
export const AUTO_BID_WINDOW_MS = 2_500
/** ...and not later than this before the deadline, so its bid is never a late one. */
export const AUTO_BID_SAFETY_MS = 400

/** Refusals that will not pass while the auction runs: the auto-bidder stops at them. */
const STOPS = new Set<AutoBidRejection>(RULE_REFUSALS)

export type AutoBidWorkerOptions = { windowMs?: number; safetyMs?: number; tickMs?: number }

/**
 * Places auto bids for users who reserved a budget (docs/decisions/015-auto-bidder.md). On each
 * tick, for every live auction holding budgets whose timer is inside the window, one auto-bidder
 * who is not leading bids through engine/lua/auto-bid.lua (same checks as a manual bid, paid from
 * the budget). Turns rotate: the auto-bidder whose turn came longest ago goes first. Budgets of
 * finished or deleted auctions go back to their owners, on the `finished` event and on every
 * tick, so a crash between finish and return loses nothing. Only the lease holder runs this.
 */
export class AutoBidWorker {
  private interval: NodeJS.Timeout | undefined
  private busy = false
  /** auctionId -> userId -> sequence number of the user's last turn there. */
  private turns = new Map<string, Map<string, number>>()
  private sequence = 0
  private readonly windowMs: number
  private readonly safetyMs: number
  private readonly tickMs: number
  private readonly onFinished = ({ auctionIds }: { auctionIds: string[] }) => {
    for (const id of auctionIds) void this.giveBack(id)
  }

  constructor(
    private readonly engine: Engine,
    options: AutoBidWorkerOptions = {},
  ) {
    this.windowMs = options.windowMs ?? AUTO_BID_WINDOW_MS
    this.safetyMs = options.safetyMs ?? AUTO_BID_SAFETY_MS
    this.tickMs = options.tickMs ?? TICK_MS
  }

  start() {
    if (this.interval) return
    this.engine.on('finished', this.onFinished)
    this.interval = setInterval(() => void this.tick(), this.tickMs)
  }

  stop() {
    clearInterval(this.interval)
    this.interval = undefined
    this.engine.off('finished', this.onFinished)
    this.turns.clear()
  }

  private async giveBack(auctionId: string) {
    try {
      if ((await this.engine.returnAutoBids(auctionId)) !== null) this.turns.delete(auctionId)
    } catch (error) {
      this.engine.log.warn('auto-bid return failed', { auctionId, error: String(error) })
    }
  }

  /** One pass over the auctions holding auto-bid budgets. */
  async tick() {
    if (this.busy) return
    this.busy = true
    try {
      const ids = await this.engine.getAutoBidAuctions()
      if (ids.length === 0) return
      const [now, states] = await Promise.all([this.engine.now(), this.engine.getStates(ids)])
      for (const [index, id] of ids.entries()) {
        const state = states[index]
        if (!state || state.status === 'finished') {
          await this.giveBack(id)
          continue
        }
        if (state.status !== 'live' || state.deadline === null) continue
        const left = state.deadline - now
        if (left > this.windowMs || left < this.safetyMs) continue
        await this.bidFor(id, state.lastBidder)
      }
    } catch (error) {
      this.engine.log.warn('auto-bid tick failed', { error: String(error) })
    } finally {
      this.busy = false
    }
  }

  /** Places one auto bid on the auction, trying auto-bidders in turn order until one succeeds. */
  private async bidFor(auctionId: string, leader: string | null) {
    const budgets = await this.engine.getAutoBidBudgets(auctionId)
    let turns = this.turns.get(auctionId)
    if (!turns) this.turns.set(auctionId, (turns = new Map()))
    const candidates = [...budgets.keys()]
      .filter((userId) => userId !== leader)
      .sort((a, b) => (turns.get(a) ?? -1) - (turns.get(b) ?? -1))
    for (const userId of candidates) {
      const result = await this.engine.autoBid(auctionId, userId)
      if (result.ok) {
        turns.set(userId, ++this.sequence)
        return
      }
      // A fair-play rule or the person's own limit refuses their bids: the auto-bidder stops
      // and its budget goes back (docs/rules.md#limits-a-bidder-sets); the next one goes on.
      if (STOPS.has(result.reason)) {
        await this.engine.stopAutoBid(auctionId, userId)
        continue
      }
      // Someone bid meanwhile (the window is over for now) or the auction ended: stop here.
      // A user refused for their own reasons (too fast, empty budget) yields to the next one.
      if (result.reason !== 'too_fast' && result.reason !== 'no_budget') return
    }
  }
}
