import { describe, expect, test } from 'vitest'
import { auditBalances, OutboxNotDrained, rebuildBalances } from './balances-audit.ts'
import { createUser, liveAuction, sleep, testEngine } from './test-support.ts'

// Each test file has a database of its own, so the audit sees only this file's users; they all
// start at 0 and get their bids through the engine, as real accounts do.

describe('balances against the ledger', () => {
  test('after bids and credits are written, every balance equals its ledger sum', async () => {
    const { engine, outbox, prisma } = testEngine()
    const [a, b] = [await createUser(prisma, 0), await createUser(prisma, 0)]
    await engine.credit(a.id, 5, 'registration_bonus', `bonus:${a.id}`)
    await engine.credit(b.id, 5, 'registration_bonus', `bonus:${b.id}`)
    const auction = await liveAuction(engine)
    expect((await engine.bid(auction.id, a.id)).ok).toBe(true)
    expect((await engine.bid(auction.id, b.id)).ok).toBe(true)
    await sleep(1000)
    expect((await engine.bid(auction.id, a.id)).ok).toBe(true)

    // Not yet written: the audit says Postgres is behind and a rebuild refuses to run.
    expect((await auditBalances(engine)).outboxLag).toBeGreaterThan(0)
    await expect(rebuildBalances(engine)).rejects.toBeInstanceOf(OutboxNotDrained)

    await outbox.drain()
    const audit = await auditBalances(engine)
    expect(audit).toMatchObject({ outboxLag: 0, mismatches: [] })
    expect(audit.checked).toBeGreaterThanOrEqual(2)
  })

  test('a wrong Postgres balance and a lost Redis copy are found and repaired from the ledger', async () => {
    const { engine, outbox, prisma, redis } = testEngine()
    const user = await createUser(prisma, 0)
    const other = await createUser(prisma, 0)
    await engine.credit(user.id, 7, 'topup', `payment:${user.id}`)
    await engine.credit(other.id, 3, 'topup', `payment:${other.id}`)
    await outbox.drain()

    // Postgres drifts for one user; Redis loses the other's hot copy and holds a wrong one.
    await prisma.user.update({ where: { id: user.id }, data: { bidBalance: 100 } })
    await redis.hset(engine.keys.user(user.id), 'bal', 42)
    await redis.del(engine.keys.user(other.id))

    const audit = await auditBalances(engine)
    expect(audit.mismatches).toEqual([
      { userId: user.id, username: user.username, ledger: 7, postgres: 100, redis: 42 },
    ])

    const { repaired } = await rebuildBalances(engine)
    expect(repaired.map((row) => row.userId)).toEqual([user.id])
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).bidBalance).toBe(7)
    expect(await engine.getBalance(user.id)).toBe(7)
    expect(await engine.getBalance(other.id)).toBe(3)
    expect((await auditBalances(engine)).mismatches).toEqual([])

    // The repaired balance is the one bids are taken from.
    const auction = await liveAuction(engine)
    expect(await engine.bid(auction.id, user.id)).toMatchObject({ ok: true, balance: 6 })
    await outbox.drain()
    expect((await auditBalances(engine)).mismatches).toEqual([])
  })
})
