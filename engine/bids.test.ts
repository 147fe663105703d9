import { describe, expect, test } from 'vitest'
import { createUser, liveAuction, sleep, testEngine, upcomingAuction } from './test-support.ts'

describe('bid', () => {
  test('debits one bid, raises the price by the increment and resets the timer', async () => {
    const { engine } = testEngine()
    const auction = await liveAuction(engine, 500)
    const user = await createUser(engine.prisma, 3)
    const result = await engine.bid(auction.id, user.id)
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.price).toBe(501)
    expect(result.balance).toBe(2)
    expect(result.bids).toBe(1)
    expect(result.deadline - result.at).toBe(10_000)
    const state = await engine.getState(auction.id)
    expect(state).toMatchObject({
      status: 'live',
      price: 501,
      lastBidder: user.id,
      lastBidderName: user.username,
      bids: 1,
    })
    expect(state!.deadline).toBe(result.deadline)
    expect(await engine.getBalance(user.id)).toBe(2)
    const [recent] = await engine.getRecentBids(auction.id)
    expect(recent).toMatchObject({
      id: result.bidId,
      bidder: user.id,
      name: user.username,
      price: 501,
      bot: false,
    })
  })

  test('each later bid moves the deadline to 10 s after it', async () => {
    const { engine } = testEngine()
    const auction = await liveAuction(engine)
    const [a, b] = [await createUser(engine.prisma), await createUser(engine.prisma)]
    const first = await engine.bid(auction.id, a.id)
    await sleep(300)
    const second = await engine.bid(auction.id, b.id)
    if (!first.ok || !second.ok) throw new Error('bids refused')
    expect(second.deadline).toBe(second.at + 10_000)
    expect(second.deadline - first.deadline).toBeGreaterThanOrEqual(300)
  })

  test('refuses an unknown auction', async () => {
    const { engine } = testEngine()
    const user = await createUser(engine.prisma)
    expect(await engine.bid('no-such-auction', user.id)).toEqual({
      ok: false,
      reason: 'auction_not_found',
    })
  })

  test('refuses an auction that has not started', async () => {
    const { engine } = testEngine()
    const auction = await upcomingAuction(engine)
    const user = await createUser(engine.prisma)
    expect(await engine.bid(auction.id, user.id)).toEqual({ ok: false, reason: 'auction_not_live' })
  })

  test('refuses the user who is already leading', async () => {
    const { engine } = testEngine()
    const auction = await liveAuction(engine)
    const user = await createUser(engine.prisma)
    expect((await engine.bid(auction.id, user.id)).ok).toBe(true)
    expect(await engine.bid(auction.id, user.id)).toEqual({ ok: false, reason: 'already_leading' })
  })

  test('refuses a second bid by one user within 1 s, on any auction', async () => {
    const { engine } = testEngine()
    const [one, two] = [await liveAuction(engine), await liveAuction(engine)]
    const user = await createUser(engine.prisma)
    expect((await engine.bid(one.id, user.id)).ok).toBe(true)
    expect(await engine.bid(two.id, user.id)).toEqual({ ok: false, reason: 'too_fast' })
    await sleep(1050)
    expect((await engine.bid(two.id, user.id)).ok).toBe(true)
  })

  test('refuses a user without bids and takes nothing', async () => {
    const { engine } = testEngine()
    const auction = await liveAuction(engine, 100)
    const user = await createUser(engine.prisma, 0)
    expect(await engine.bid(auction.id, user.id)).toEqual({
      ok: false,
      reason: 'insufficient_bids',
    })
    expect(await engine.getBalance(user.id)).toBe(0)
    expect((await engine.getState(auction.id))!.price).toBe(100)
  })

  test('refuses an unknown user', async () => {
    const { engine } = testEngine()
    const auction = await liveAuction(engine)
    expect(await engine.bid(auction.id, 'nobody')).toEqual({ ok: false, reason: 'user_not_found' })
  })

  test('accepts no bid after the deadline even when the sweeper is late', async () => {
    const { engine } = testEngine({ timerMs: 1_000 })
    // The people first: an auction without bids ends a timer after its start, and two inserts
    // into Postgres have taken longer than a short timer on a busy machine.
    const [a, b] = [await createUser(engine.prisma), await createUser(engine.prisma)]
    const auction = await liveAuction(engine)
    expect((await engine.bid(auction.id, a.id)).ok).toBe(true)
    // Until the deadline the engine gives has passed.
    const { deadline } = (await engine.getState(auction.id))!
    await sleep(deadline! - Date.now() + 50)
    // No sweep has run: the auction is still "live" in Redis, but its deadline has passed.
    expect((await engine.getState(auction.id))!.status).toBe('live')
    expect(await engine.bid(auction.id, b.id)).toEqual({ ok: false, reason: 'auction_ended' })
    expect(await engine.getBalance(b.id)).toBe(10)
    const swept = await engine.sweep()
    expect(swept.finished).toEqual([auction.id])
    expect(await engine.getState(auction.id)).toMatchObject({
      status: 'finished',
      lastBidder: a.id,
      price: 1,
    })
    expect(await engine.bid(auction.id, b.id)).toEqual({ ok: false, reason: 'auction_ended' })
  })
})

describe('scripts', () => {
  test('survive SCRIPT FLUSH (NOSCRIPT is handled)', async () => {
    const { engine, redis } = testEngine()
    const auction = await liveAuction(engine)
    await redis.script('FLUSH')
    const user = await createUser(engine.prisma)
    expect((await engine.bid(auction.id, user.id)).ok).toBe(true)
  })
})
