import type { Engine } from './engine.ts'

const TICK_MS = 200
const CONFIG_TTL_MS = 2_000
/** A bot bids at least this long before the deadline, so its bid is never a late one. */
const SAFETY_MS = 400

type BotConfig = {
  enabled: boolean
  minDelayMs: number
  maxDelayMs: number
  activeBots: number
  /** A bot's bid in an auction's record: `bot` while house bids are disclosed (decision 044). */
  kind: 'bot' | 'bid'
  /** auctionId -> assigned bots allowed to bid there (first `activeBots` active ones). */
  assignments: Map<string, Array<{ id: string; name: string; limit: number }>>
}

type Plan = { deadline: number; at: number }

/**
 * Places bot bids through the same bid script as people (no debit): after each bid an assigned
 * bot answers after a random delay between minDelay and maxDelay seconds, but always before the
 * deadline. A bot never outbids itself (the script refuses `already_leading`) and stops at its
 * limit (`bot_limit_reached`, counted atomically in Redis).
 */
export class BotWorker {
  private interval: NodeJS.Timeout | undefined
  private config: BotConfig | undefined
  private configAt = 0
  private plans = new Map<string, Plan>()
  private busy = false

  constructor(
    private readonly engine: Engine,
    private readonly random: () => number = Math.random,
  ) {}

  start() {
    if (this.interval) return
    this.interval = setInterval(() => void this.tick(), TICK_MS)
  }

  stop() {
    clearInterval(this.interval)
    this.interval = undefined
    this.plans.clear()
  }

  /** Forget cached settings and assignments (after an admin change). */
  invalidate() {
    this.configAt = 0
  }

  private async loadConfig(): Promise<BotConfig> {
    if (this.config && Date.now() - this.configAt < CONFIG_TTL_MS) return this.config
    const prisma = this.engine.prisma
    const [settings, site, rows] = await Promise.all([
      prisma.botSettings.findUnique({ where: { id: 1 } }),
      prisma.settings.findUnique({ where: { id: 1 }, select: { discloseHouseBids: true } }),
      prisma.botAssignment.findMany({
        where: {
          isActive: true,
          bot: { isActive: true },
          auction: { status: { in: ['live', 'upcoming'] } },
        },
        orderBy: { createdAt: 'asc' },
        select: { auctionId: true, bidLimit: true, bot: { select: { id: true, username: true } } },
      }),
    ])
    const activeBots = settings?.activeBots ?? 0
    const assignments = new Map<string, Array<{ id: string; name: string; limit: number }>>()
    for (const row of rows) {
      const list = assignments.get(row.auctionId) ?? []
      if (list.length < activeBots)
        list.push({ id: row.bot.id, name: row.bot.username, limit: row.bidLimit })
      assignments.set(row.auctionId, list)
    }
    const minDelay = settings?.minDelay ?? 5
    this.config = {
      enabled: settings?.enabled ?? false,
      minDelayMs: minDelay * 1000,
      maxDelayMs: Math.max(minDelay, settings?.maxDelay ?? minDelay) * 1000,
      activeBots,
      kind: (site?.discloseHouseBids ?? true) ? 'bot' : 'bid',
      assignments,
    }
    this.configAt = Date.now()
    return this.config
  }

  /** One pass: plan a bot answer for every live auction with bots, and place the due ones. */
  async tick() {
    if (this.busy) return
    this.busy = true
    try {
      const config = await this.loadConfig()
      if (!config.enabled || config.activeBots === 0 || config.assignments.size === 0) {
        this.plans.clear()
        return
      }
      const ids = [...config.assignments.keys()]
      const [now, states] = await Promise.all([this.engine.now(), this.engine.getStates(ids)])
      for (const [index, id] of ids.entries()) {
        const state = states[index]
        if (!state || state.status !== 'live' || state.deadline === null) {
          this.plans.delete(id)
          continue
        }
        let plan = this.plans.get(id)
        if (!plan || plan.deadline !== state.deadline) {
          // The timer was reset by a bid (or the auction just started): plan the answer.
          const lastBidAt = state.deadline - this.engine.timerMs
          const delay = config.minDelayMs + this.random() * (config.maxDelayMs - config.minDelayMs)
          plan = {
            deadline: state.deadline,
            at: Math.min(lastBidAt + delay, state.deadline - SAFETY_MS),
          }
          this.plans.set(id, plan)
        }
        if (now < plan.at) continue
        const bots = (config.assignments.get(id) ?? []).filter(
          (bot) => `bot:${bot.id}` !== state.lastBidder,
        )
        if (bots.length === 0) continue
        const bot = bots[Math.floor(this.random() * bots.length)]!
        const result = await this.engine.botBid(id, { ...bot, kind: config.kind })
        if (!result.ok) {
          if (result.reason === 'bot_limit_reached') {
            // Out of bids: this bot sits out the rest of the auction.
            config.assignments.set(
              id,
              (config.assignments.get(id) ?? []).filter((b) => b.id !== bot.id),
            )
          }
          this.plans.set(id, { ...plan, at: plan.at + TICK_MS })
        }
      }
    } catch (error) {
      this.engine.log.warn('bot tick failed', { error: String(error) })
    } finally {
      this.busy = false
    }
  }
}
