import { describe, expect, test } from 'vitest'
import { createUser, liveAuction, startNow, testEngine, upcomingAuction } from './test-support.ts'

describe('removing a user', () => {
  test('balance, prebids and auto-bid budgets leave the engine at once; the account cannot come back', async () => {
    const { engine } = testEngine()
    const upcoming = await upcomingAuction(engine)
    const live = await liveAuction(engine, 100)
    const [gone, other] = [await createUser(engine.prisma, 10), await createUser(engine.prisma, 10)]
    expect((await engine.prebid(upcoming.id, other.id)).ok).toBe(true)
    expect((await engine.prebid(upcoming.id, gone.id)).ok).toBe(true)
    expect((await engine.setAutoBid(live.id, gone.id, 5)).ok).toBe(true)
    expect((await engine.getState(upcoming.id))?.prebids).toBe(2)

    const removed = await engine.removeUser(gone.id)
    expect([...removed.prebids]).toEqual([[upcoming.id, 1]])
    expect(removed.autoBids).toEqual([live.id])

    // Its Postgres row is still there (it goes right after): it must not bring the balance back.
    expect(await engine.getBalance(gone.id)).toBeNull()
    expect(await engine.bid(live.id, gone.id)).toEqual({ ok: false, reason: 'user_not_found' })
    expect(await engine.autoBid(live.id, gone.id)).toEqual({ ok: false, reason: 'user_not_found' })
    expect(await engine.prebid(upcoming.id, gone.id)).toEqual({
      ok: false,
      reason: 'user_not_found',
    })
    expect((await engine.credit(gone.id, 3, 'refund', `r:${gone.id}`)).ok).toBe(false)
    expect(await engine.getAutoBidBudgets(live.id)).toEqual(new Map())
    expect(await engine.hasPrebid(upcoming.id, gone.id)).toBe(false)
    expect((await engine.getState(upcoming.id))?.prebids).toBe(1)

    // At the start only the other prebid becomes a bid.
    await startNow(engine, upcoming.id)
    expect(await engine.getState(upcoming.id)).toMatchObject({
      status: 'live',
      price: 1,
      lastBidder: other.id,
      bids: 1,
      prebids: 1,
    })
    expect((await engine.getRecentBids(upcoming.id)).map((bid) => bid.bidder)).toEqual([other.id])
    // Nothing else was touched.
    expect(await engine.getBalance(other.id)).toBe(9)
  })
})
