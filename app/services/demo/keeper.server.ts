import { randomInt } from 'node:crypto'
import type { Engine } from '../../../engine/index.ts'
import { followLease } from '../../../engine/index.ts'
import { DomainError } from '~/utils/domain-error.ts'
import { createAuction, updateAuction } from '~/models/admin-auctions.server.ts'
import { assignBot, getBotSettings, updateBotSettings } from '~/models/admin-bots.server.ts'
import { errorFields, log } from '~/utils/logger.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import {
  DEFAULT_KEEPER_OPTIONS,
  planKeeperPass,
  type KeeperMove,
  type KeeperOptions,
  type KeeperSnapshot,
} from './keeper-plan.ts'

// The demo keeper (docs/decisions/048-demo-keeper.md): with DEMO_MODE on, a demo site always has
// auctions running. On the engine lease holder, every few seconds, it keeps a few auctions live
// and one starting within minutes, bringing the next upcoming one forward or listing a finished
// lot again, and gives each one about to run house bots with bid limits, which bid through the
// bot worker (engine/bots.ts). Every change goes through the admin's model functions, so Redis
// and Postgres agree as after an admin's edit. Never started without the switch.

export type DemoKeeperOptions = KeeperOptions & {
  /** How often a pass runs. */
  intervalMs: number
  /** House bots put on an auction about to run. */
  botsPerAuction: number
  /** Each bot's bid limit there is drawn from this range (inclusive). */
  bidLimit: [number, number]
}

export const DEFAULT_DEMO_KEEPER_OPTIONS: DemoKeeperOptions = {
  ...DEFAULT_KEEPER_OPTIONS,
  intervalMs: 10_000,
  botsPerAuction: 2,
  bidLimit: [8, 30],
}

export type KeeperPassResult = { broughtForward: number; relisted: number; botsAssigned: number }

/** What the engine holds now, and the finished lots that may be listed again. */
export async function keeperSnapshot(engine: Engine): Promise<KeeperSnapshot> {
  const prisma = getPrisma()
  const open = await prisma.auction.findMany({
    where: { status: { in: ['upcoming', 'live'] } },
    select: { id: true, title: true },
  })
  const [now, states] = await Promise.all([engine.now(), engine.getStates(open.map((a) => a.id))])
  const snapshot: KeeperSnapshot = { now, live: [], upcoming: [], relistable: [] }
  const listed = new Set<string>()
  for (const [index, auction] of open.entries()) {
    const state = states[index]
    if (state?.status === 'live') snapshot.live.push(auction.id)
    else if (state?.status === 'upcoming')
      snapshot.upcoming.push({ id: auction.id, startTime: state.startTime })
    else continue
    listed.add(auction.title)
  }
  // The newest finished lot of each product, the product listed longest ago first.
  const finished = await prisma.auction.findMany({
    where: { status: 'finished' },
    distinct: ['title'],
    orderBy: [{ title: 'asc' }, { endTime: 'desc' }],
    select: { id: true, title: true, endTime: true },
  })
  snapshot.relistable = finished
    .filter((lot) => !listed.has(lot.title))
    .sort((a, b) => (a.endTime?.getTime() ?? 0) - (b.endTime?.getTime() ?? 0))
    .map(({ id, title }) => ({ id, title }))
  return snapshot
}

/** One pass: plans from what the engine holds and carries the moves out. */
export async function runKeeperPass(
  engine: Engine,
  options: DemoKeeperOptions = DEFAULT_DEMO_KEEPER_OPTIONS,
): Promise<KeeperPassResult> {
  const result: KeeperPassResult = { broughtForward: 0, relisted: 0, botsAssigned: 0 }
  const snapshot = await keeperSnapshot(engine)
  for (const move of planKeeperPass(snapshot, options)) {
    try {
      result.botsAssigned += await carryOut(engine, move, options)
      if (move.kind === 'bringForward') result.broughtForward++
      else result.relisted++
    } catch (error) {
      // An upcoming one that started meanwhile cannot move: the next pass sees it live.
      if (!(error instanceof DomainError)) throw error
      log.info('demo keeper move skipped', { ...move, reason: error.key })
    }
  }
  // Whatever runs or is about to (seeded, an admin's, brought forward) has its house bots.
  const after = await keeperSnapshot(engine)
  const running = [
    ...after.live,
    ...after.upcoming.filter((a) => a.startTime <= after.now + options.soonMs).map((a) => a.id),
  ]
  for (const id of running) result.botsAssigned += await assignHouseBots(id, options)
  if (result.broughtForward || result.relisted || result.botsAssigned)
    log.info('demo keeper pass', result)
  return result
}

async function carryOut(engine: Engine, move: KeeperMove, options: DemoKeeperOptions) {
  const prisma = getPrisma()
  const id = move.kind === 'bringForward' ? move.auctionId : move.fromAuctionId
  const row = await prisma.auction.findUniqueOrThrow({ where: { id } })
  const product = {
    title: row.title,
    description: row.description,
    imageUrl: row.imageUrl,
    retailPrice: row.retailPrice,
    estimatedValue: row.estimatedValue ?? undefined,
    condition: row.condition,
    category: row.category,
    featured: row.featured,
    startTime: new Date(move.startTime),
    // A package keeps its bids (left out, they would follow the retail price).
    packageBids: row.packageBids ?? undefined,
  }
  if (move.kind === 'bringForward') {
    // Its bots are there before it starts, so their first bid comes in its first seconds.
    const assigned = await assignHouseBots(row.id, options)
    await updateAuction(engine, row.id, product)
    return assigned
  }
  const created = await createAuction(engine, { ...product, isBidPackage: row.isBidPackage })
  return assignHouseBots(created.id, options)
}

/** Gives an auction without house bots a few, each with a bid limit; returns how many. */
async function assignHouseBots(auctionId: string, options: DemoKeeperOptions) {
  const prisma = getPrisma()
  if ((await prisma.botAssignment.count({ where: { auctionId } })) > 0) return 0
  const bots = await prisma.bot.findMany({ where: { isActive: true }, select: { id: true } })
  let assigned = 0
  for (let i = 0; i < options.botsPerAuction && bots.length > 0; i++) {
    const [bot] = bots.splice(randomInt(bots.length), 1)
    const [low, high] = options.bidLimit
    try {
      await assignBot(auctionId, bot!.id, randomInt(low, high + 1))
      assigned++
    } catch (error) {
      // Finished meanwhile, or assigned by someone else: nothing to add.
      if (!(error instanceof DomainError)) throw error
    }
  }
  return assigned
}

/** A demo promises bidding house bots: at its start they are switched on if they are off. */
async function houseBotsOn(botsPerAuction: number) {
  const settings = await getBotSettings()
  if (settings.enabled && settings.activeBots > 0) return
  await updateBotSettings({
    enabled: true,
    activeBots: Math.max(settings.activeBots, botsPerAuction),
  })
  log.info('demo keeper switched the house bots on')
}

export class DemoKeeper {
  private interval: NodeJS.Timeout | undefined
  private busy = false
  readonly options: DemoKeeperOptions

  constructor(
    private readonly engine: Engine,
    options: Partial<DemoKeeperOptions> = {},
  ) {
    this.options = { ...DEFAULT_DEMO_KEEPER_OPTIONS, ...options }
  }

  /** Follows the engine lease: only its holder keeps the demo (engine/lease.ts). */
  followLease() {
    followLease(this.engine, this)
    return this
  }

  start() {
    if (this.interval) return
    this.interval = setInterval(() => void this.tick(), this.options.intervalMs)
    this.interval.unref()
    // A demo started again days later is brought back to life at once.
    void houseBotsOn(this.options.botsPerAuction)
      .catch((error: unknown) =>
        log.warn('demo keeper: house bots not switched on', errorFields(error)),
      )
      .then(() => this.tick())
  }

  stop() {
    clearInterval(this.interval)
    this.interval = undefined
  }

  async tick() {
    if (this.busy || !this.interval) return
    this.busy = true
    try {
      await runKeeperPass(this.engine, this.options)
    } catch (error) {
      log.warn('demo keeper pass failed', errorFields(error))
    } finally {
      this.busy = false
    }
  }
}

/**
 * Started by server.ts through app/entry.server.tsx. Without DEMO_MODE nothing runs: a real
 * site's auctions are never moved or listed again.
 */
export function startDemoKeeper(
  engine: Engine,
  env: { DEMO_MODE: boolean },
  options: Partial<DemoKeeperOptions> = {},
): { stop(): void } | null {
  if (!env.DEMO_MODE) return null
  log.info('demo mode: the demo keeper runs on the engine lease holder')
  return new DemoKeeper(engine, options).followLease()
}
