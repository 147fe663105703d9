import { describe, expect, test } from 'vitest'
import type { Engine } from './engine.ts'
import { createAuction, createUser, sleep, testEngine } from './test-support.ts'

// The fair-play rules in the bid scripts (engine/lua/shared/rules.lua, docs/rules.md#fair-play-auctions):
// each refused in the script itself, raced by many bids at once.

type Rules = { beginnerOnly?: boolean; lockAfterMinutes?: number | null; startTime?: Date }

/** An auction with its fair-play rules, loaded and started (live) or upcoming. */
async function auctionWith(engine: Engine, rules: Rules, status: 'live' | 'upcoming' = 'live') {
  const startTime =
    rules.startTime ?? new Date(Date.now() + (status === 'live' ? -1000 : 3_600_000))
  const auction = await createAuction(engine.prisma, { startTime })
  await engine.prisma.auction.update({
    where: { id: auction.id },
    data: { beginnerOnly: rules.beginnerOnly ?? false, lockAfterMinutes: rules.lockAfterMinutes },
  })
  await engine.loadAuction(auction.id)
  if (status === 'live') await engine.sweep()
  expect((await engine.getState(auction.id))?.status).toBe(status)
  return auction
}

/** A person who has won an auction (in Postgres only: Redis learns it when loading them). */
async function winner(engine: Engine, balance: number, endedAgoMs = 60_000, phone?: string) {
  const user = await createUser(engine.prisma, balance)
  const won = await createAuction(engine.prisma, { startTime: new Date(Date.now() - 3_600_000) })
  await engine.prisma.auction.update({
    where: { id: won.id },
    data: { status: 'finished', winnerId: user.id, endTime: new Date(Date.now() - endedAgoMs) },
  })
  await engine.prisma.user.update({
    where: { id: user.id },
    data: { wonAuctions: 1, verifiedPhone: phone ?? null },
  })
  return user
}

const setWinLimit = (engine: Engine, limit: number, byPhone = false) =>
  engine.redis.hset(engine.keys.rules, { wl: limit, wp: byPhone ? '1' : '0' })

describe('beginner auctions', () => {
  test('only people who have never won may bid or prebid; the refused keep their bids', async () => {
    const { engine } = testEngine()
    await setWinLimit(engine, 0)
    const live = await auctionWith(engine, { beginnerOnly: true })
    const upcoming = await auctionWith(engine, { beginnerOnly: true }, 'upcoming')
    const veteran = await winner(engine, 5)
    const beginner = await createUser(engine.prisma, 5)
    expect(await engine.bid(live.id, veteran.id)).toEqual({ ok: false, reason: 'beginner_only' })
    expect(await engine.prebid(upcoming.id, veteran.id)).toEqual({
      ok: false,
      reason: 'beginner_only',
    })
    expect(await engine.setAutoBid(live.id, veteran.id, 2)).toEqual({
      ok: false,
      reason: 'beginner_only',
    })
    expect(await engine.getBalance(veteran.id)).toBe(5)
    expect(await engine.bid(live.id, beginner.id)).toMatchObject({ ok: true, balance: 4 })
    expect(await engine.prebid(upcoming.id, beginner.id)).toMatchObject({ ok: true })
  })

  test('a win counts at once, before Postgres knows of it: many prebids after it, none taken', async () => {
    const { engine } = testEngine({ timerMs: 300 })
    await setWinLimit(engine, 0)
    // Upcoming beginner auctions (the short timer would end live ones while they are made).
    const others = await Promise.all(
      Array.from({ length: 10 }, () => auctionWith(engine, { beginnerOnly: true }, 'upcoming')),
    )
    const first = await auctionWith(engine, {})
    const beginner = await createUser(engine.prisma, 30)
    expect(await engine.bid(first.id, beginner.id)).toMatchObject({ ok: true })
    // The timer runs out: the sweep that finishes the auction makes them a winner.
    while ((await engine.getState(first.id))?.status !== 'finished') {
      await engine.sweep()
      await sleep(50)
    }
    const results = await Promise.all(others.map((a) => engine.prebid(a.id, beginner.id)))
    expect(results).toEqual(others.map(() => ({ ok: false, reason: 'beginner_only' })))
    expect(await engine.getBalance(beginner.id)).toBe(29)
  })
})

describe('locked auctions', () => {
  test('once locked, only who bid before may bid: no bid of a newcomer after the lock', async () => {
    const { engine } = testEngine()
    await setWinLimit(engine, 0)
    // Live for 59.4 s of its 1 minute: it locks in 0.6 s.
    const startTime = new Date(Date.now() - 59_400)
    const auction = await auctionWith(engine, { lockAfterMinutes: 1, startTime })
    const lockAt = startTime.getTime() + 60_000
    const [early, other] = [await createUser(engine.prisma, 5), await createUser(engine.prisma, 5)]
    const first = await engine.bid(auction.id, early.id)
    expect(first).toMatchObject({ ok: true })
    expect(await engine.bid(auction.id, other.id)).toMatchObject({ ok: true })
    const newcomers = await Promise.all(
      Array.from({ length: 30 }, () => createUser(engine.prisma, 5)),
    )
    // Newcomers bid in waves across the moment of the lock; after it no newcomer's bid is taken.
    const results = []
    while ((await engine.now()) < lockAt + 200) {
      const wave = newcomers.splice(0, 3)
      if (wave.length === 0) break
      results.push(...(await Promise.all(wave.map((u) => engine.bid(auction.id, u.id)))))
      await sleep(60)
    }
    for (const result of results) {
      if (result.ok) expect(result.at).toBeLessThan(lockAt)
      else expect(['auction_locked', 'already_leading']).toContain(result.reason)
    }
    expect(results.some((r) => !r.ok && r.reason === 'auction_locked')).toBe(true)
    const late = await createUser(engine.prisma, 5)
    expect(await engine.bid(auction.id, late.id)).toEqual({ ok: false, reason: 'auction_locked' })
    expect(await engine.setAutoBid(auction.id, late.id, 2)).toEqual({
      ok: false,
      reason: 'auction_locked',
    })
    expect(await engine.getBalance(late.id)).toBe(5)
    // Who bid before the lock still may (once a second, as anyone).
    while ((await engine.now()) < (first.ok ? first.at : 0) + 1000) await sleep(50)
    const leader = (await engine.getState(auction.id))!.lastBidder
    expect(await engine.bid(auction.id, leader === early.id ? other.id : early.id)).toMatchObject({
      ok: true,
    })
    // A house bot that never bid on it may not join either.
    expect(await engine.botBid(auction.id, { id: 'newbot', name: 'Bot', limit: 0 })).toEqual({
      ok: false,
      reason: 'auction_locked',
    })
  })
})

describe('the win limit', () => {
  test('at the limit of wins in 7 days nobody bids: many bids at once, none taken', async () => {
    const { engine } = testEngine()
    await setWinLimit(engine, 1)
    const auctions = await Promise.all(Array.from({ length: 8 }, () => auctionWith(engine, {})))
    const recent = await winner(engine, 20)
    const results = await Promise.all(auctions.map((a) => engine.bid(a.id, recent.id)))
    expect(results).toEqual(auctions.map(() => ({ ok: false, reason: 'win_limit' })))
    const upcoming = await auctionWith(engine, {}, 'upcoming')
    expect(await engine.prebid(upcoming.id, recent.id)).toEqual({ ok: false, reason: 'win_limit' })
    expect(await engine.getBalance(recent.id)).toBe(20)
    // A win 8 days ago no longer counts; with the limit off, the recent winner bids too.
    const old = await winner(engine, 5, 8 * 24 * 3_600_000)
    expect(await engine.bid(auctions[0]!.id, old.id)).toMatchObject({ ok: true })
    await setWinLimit(engine, 0)
    expect(await engine.bid(auctions[1]!.id, recent.id)).toMatchObject({ ok: true })
  })

  test('with the verified-phone rule, a second account of the same phone does not reset it', async () => {
    const { engine } = testEngine()
    const phone = `+996700${Math.floor(Math.random() * 1e6)}`
    await winner(engine, 5, 60_000, phone)
    const second = await createUser(engine.prisma, 5)
    await engine.prisma.user.update({ where: { id: second.id }, data: { verifiedPhone: phone } })
    const auction = await auctionWith(engine, {})
    await setWinLimit(engine, 1, false)
    // Counted per person: the second account has not won.
    expect(await engine.bid(auction.id, second.id)).toMatchObject({ ok: true })
    await setWinLimit(engine, 1, true)
    const next = await auctionWith(engine, {})
    expect(await engine.bid(next.id, second.id)).toEqual({ ok: false, reason: 'win_limit' })
  })

  test('missing settings are loaded from Postgres, not skipped', async () => {
    const { engine } = testEngine()
    const auction = await auctionWith(engine, {})
    // Someone who has won: their bid needs the win limit's settings.
    const user = await winner(engine, 5, 9 * 24 * 3_600_000)
    expect(await engine.redis.exists(engine.keys.rules)).toBe(0)
    expect(await engine.bid(auction.id, user.id)).toMatchObject({ ok: true })
    expect(await engine.redis.hget(engine.keys.rules, 'wl')).not.toBeNull()
  })
})
