import { describe, expect, test } from 'vitest'
import { AutoBidWorker } from './auto-bid-worker.ts'
import type { Engine } from './engine.ts'
import { changeLimits, DAY_MS, LIMIT_DELAY_MS, limitsAt, noLimits, type Limits } from './limits.ts'
import { limitColumns } from './load.ts'
import {
  createAuction,
  createUser,
  liveAuction,
  testEngine,
  upcomingAuction,
  waitFor,
} from './test-support.ts'

// The limits a bidder sets (docs/rules.md#limits-a-bidder-sets): the rule of their changes, and
// their enforcement in the bid scripts, raced.

const now = Date.UTC(2026, 11, 2, 12)

describe('changing limits', () => {
  test('lowering a limit or starting an exclusion applies at once', () => {
    const limited = changeLimits(noLimits, { dailyBidLimit: 20 }, now)
    expect(limited).toMatchObject({ dailyBidLimit: 20, pending: null, version: 1 })
    expect(changeLimits(limited, { dailyBidLimit: 5 }, now)).toMatchObject({
      dailyBidLimit: 5,
      pending: null,
    })
    const excluded = changeLimits(limited, { selfExcludeDays: 7 }, now)
    expect(excluded).toMatchObject({ dailyBidLimit: 20, selfExcludedUntil: now + 7 * DAY_MS })
    // A longer exclusion applies at once too.
    expect(changeLimits(excluded, { selfExcludeDays: 30 }, now + 1)).toMatchObject({
      selfExcludedUntil: now + 1 + 30 * DAY_MS,
      pending: null,
    })
  })

  test('raising or removing a limit, ending or shortening an exclusion wait 24 hours, whole', () => {
    const limited: Limits = { ...noLimits, dailyBidLimit: 5, selfExcludedUntil: now + 7 * DAY_MS }
    const raised = changeLimits(limited, { dailyBidLimit: 50 }, now)
    expect(raised).toMatchObject({
      dailyBidLimit: 5,
      pending: {
        dailyBidLimit: 50,
        selfExcludedUntil: now + 7 * DAY_MS,
        appliesAt: now + LIMIT_DELAY_MS,
      },
    })
    // Ending the exclusion later keeps the raise and waits 24 hours from now.
    const ended = changeLimits(raised, { selfExcludeDays: 0 }, now + 1000)
    expect(ended).toMatchObject({
      dailyBidLimit: 5,
      selfExcludedUntil: now + 7 * DAY_MS,
      pending: {
        dailyBidLimit: 50,
        selfExcludedUntil: null,
        appliesAt: now + 1000 + LIMIT_DELAY_MS,
      },
    })
    // Asking for what already waits does not restart its 24 hours.
    expect(changeLimits(ended, { dailyBidLimit: 50 }, now + 5000).pending?.appliesAt).toBe(
      now + 1000 + LIMIT_DELAY_MS,
    )
    // A lower limit applies at once and drops the raise that waited.
    expect(changeLimits(raised, { dailyBidLimit: 3 }, now + 1000)).toMatchObject({
      dailyBidLimit: 3,
      pending: null,
    })
    // Removing the limit waits too.
    expect(changeLimits(limited, { dailyBidLimit: null }, now).pending).toMatchObject({
      dailyBidLimit: null,
    })
    // Once its time comes, the pending change is what is in force.
    expect(limitsAt(ended, now + 1000 + LIMIT_DELAY_MS)).toMatchObject({
      dailyBidLimit: 50,
      selfExcludedUntil: null,
      pending: null,
    })
  })
})

/** Sets the person's limits as the app does: Postgres, then the engine. */
async function limit(engine: Engine, userId: string, limits: Limits) {
  await engine.prisma.user.update({ where: { id: userId }, data: limitColumns(limits) })
  await engine.setLimits(userId, limits)
}

async function setup() {
  const { engine } = testEngine()
  await engine.redis.hset(engine.keys.rules, { wl: 0, wp: '0' })
  return engine
}

describe('enforced in the bid scripts', () => {
  test('the daily limit: prebids and a bid at once at the limit, none past it', async () => {
    const engine = await setup()
    const user = await createUser(engine.prisma, 50)
    await limit(engine, user.id, changeLimits(noLimits, { dailyBidLimit: 3 }, Date.now()))
    const upcoming = await Promise.all(Array.from({ length: 12 }, () => upcomingAuction(engine)))
    const live = await liveAuction(engine)
    const results = await Promise.all([
      ...upcoming.map((a) => engine.prebid(a.id, user.id)),
      engine.bid(live.id, user.id),
    ])
    expect(results.filter((r) => r.ok)).toHaveLength(3)
    expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.reason === 'daily_limit')).toBe(
      true,
    )
    expect(await engine.getBalance(user.id)).toBe(47)
    // No new auto-bidder at the limit.
    expect(await engine.setAutoBid(live.id, user.id, 5)).toEqual({
      ok: false,
      reason: 'daily_limit',
    })
  })

  test('an exclusion refuses bids, prebids and auto-bidders at once; the balance stays', async () => {
    const engine = await setup()
    const user = await createUser(engine.prisma, 10)
    const live = await liveAuction(engine)
    const upcoming = await upcomingAuction(engine)
    await engine.getBalance(user.id)
    await limit(engine, user.id, changeLimits(noLimits, { selfExcludeDays: 1 }, Date.now()))
    const results = await Promise.all([
      engine.bid(live.id, user.id),
      engine.prebid(upcoming.id, user.id),
      engine.setAutoBid(live.id, user.id, 3),
    ])
    expect(results).toEqual(results.map(() => ({ ok: false, reason: 'self_excluded' })))
    expect(await engine.getBalance(user.id)).toBe(10)
  })

  test('a pending change applies in the script once its time has come', async () => {
    const engine = await setup()
    const user = await createUser(engine.prisma, 10)
    const t = Date.now()
    // Limit 1 a day, its removal asked for 24 hours ago: it applies now.
    await limit(engine, user.id, {
      dailyBidLimit: 1,
      selfExcludedUntil: null,
      pending: { dailyBidLimit: null, selfExcludedUntil: null, appliesAt: t - 1000 },
      version: 2,
    })
    const auctions = await Promise.all([upcomingAuction(engine), upcomingAuction(engine)])
    const results = await Promise.all(auctions.map((a) => engine.prebid(a.id, user.id)))
    expect(results.every((r) => r.ok)).toBe(true)
    // An older copy of the limits (a load that read Postgres earlier) does not replace it.
    await engine.setLimits(user.id, {
      ...changeLimits(noLimits, { dailyBidLimit: 1 }, t),
      version: 1,
    })
    expect(await engine.prebid((await upcomingAuction(engine)).id, user.id)).toMatchObject({
      ok: true,
    })
  })

  test('after Redis lost them, the limits, the wins and the day\u2019s bids come back from Postgres', async () => {
    const engine = await setup()
    const user = await createUser(engine.prisma, 10)
    await engine.prisma.user.update({
      where: { id: user.id },
      data: limitColumns(changeLimits(noLimits, { dailyBidLimit: 2 }, Date.now())),
    })
    // One bid today in Postgres (the outbox wrote it before Redis was lost).
    const done = await createAuction(engine.prisma)
    await engine.prisma.bid.create({ data: { auctionId: done.id, userId: user.id, amount: 1 } })
    await engine.redis.del(engine.keys.user(user.id))
    const auctions = await Promise.all(Array.from({ length: 5 }, () => upcomingAuction(engine)))
    const results = await Promise.all(auctions.map((a) => engine.prebid(a.id, user.id)))
    expect(results.filter((r) => r.ok)).toHaveLength(1)
    expect(await engine.getBalance(user.id)).toBe(9)
  })
})

describe('the auto-bidder', () => {
  test('stops at the daily limit, and what is left of its budget goes back', async () => {
    const { engine } = testEngine({ timerMs: 2_000 })
    await engine.redis.hset(engine.keys.rules, { wl: 0, wp: '0' })
    const worker = new AutoBidWorker(engine, { windowMs: 800, safetyMs: 150, tickMs: 40 })
    const [auto, rival] = [await createUser(engine.prisma, 10), await createUser(engine.prisma, 10)]
    const auction = await liveAuction(engine)
    expect(await engine.setAutoBid(auction.id, auto.id, 5)).toMatchObject({ ok: true })
    await limit(engine, auto.id, changeLimits(noLimits, { dailyBidLimit: 1 }, Date.now()))
    worker.start()
    try {
      const leader = async () => (await engine.getState(auction.id))?.lastBidder
      expect(await engine.bid(auction.id, rival.id)).toMatchObject({ ok: true })
      await waitFor(async () => (await leader()) === auto.id)
      // The rival bids again (once a second at most): the auto-bidder is at its limit.
      await waitFor(async () => (await engine.bid(auction.id, rival.id)).ok)
      await waitFor(async () => (await engine.getAutoBid(auction.id, auto.id)) === null)
      expect(await leader()).toBe(rival.id)
      // 10 - 5 reserved + 4 never placed.
      expect(await engine.getBalance(auto.id)).toBe(9)
    } finally {
      worker.stop()
    }
  })
})
