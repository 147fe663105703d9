import { describe, expect, test } from 'vitest'
import { createUser, liveAuction, testEngine } from './test-support.ts'
import { ADMIN_BALANCE_MAX } from './types.ts'

describe('balances', () => {
  test('a credit replayed three times credits once, and the ledger agrees', async () => {
    const { engine, outbox, prisma } = testEngine()
    const user = await createUser(prisma, 5)
    const results = await Promise.all(
      [1, 2, 3].map(() => engine.credit(user.id, 50, 'topup', 'payment:tx-1')),
    )
    expect(results.filter((r) => r.ok && r.applied)).toHaveLength(1)
    expect(await engine.getBalance(user.id)).toBe(55)
    expect(await engine.credit(user.id, 50, 'topup', 'payment:tx-1')).toEqual({
      ok: true,
      applied: false,
      balance: 55,
    })
    await outbox.drain()
    const ledger = await prisma.balanceLedger.findMany({ where: { userId: user.id } })
    expect(ledger).toMatchObject([
      { amount: 50, balanceAfter: 55, reason: 'topup', reference: 'payment:tx-1' },
    ])
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).bidBalance).toBe(55)
  })

  test('an admin adjusts a balance as it is now; the ledger keeps the admin and the reason', async () => {
    const { engine, outbox, prisma } = testEngine()
    const user = await createUser(prisma, 7)
    const change = { reference: 'admin:1', adminId: 'admin-id', note: 'Компенсация' }
    // A top-up lands between the admin's read (7) and their save: both count.
    await engine.credit(user.id, 50, 'topup', 'payment:tx-2')
    expect(await engine.adjustBalance(user.id, { ...change, delta: -4 })).toEqual({
      ok: true,
      applied: true,
      balance: 53,
    })
    // The same reference again changes nothing.
    expect(await engine.adjustBalance(user.id, { ...change, delta: -4 })).toEqual({
      ok: true,
      applied: false,
      balance: 53,
    })
    await outbox.drain()
    expect(
      await prisma.balanceLedger.findMany({
        where: { userId: user.id, reason: 'admin_adjust' },
        select: { amount: true, balanceAfter: true, adminId: true, note: true, reference: true },
      }),
    ).toEqual([
      {
        amount: -4,
        balanceAfter: 53,
        adminId: 'admin-id',
        note: 'Компенсация',
        reference: 'admin:1',
      },
    ])
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).bidBalance).toBe(53)
  })

  test('an adjustment below 0, above the maximum or from a stale balance changes nothing', async () => {
    const { engine, outbox, prisma } = testEngine()
    const user = await createUser(prisma, 3)
    const change = { adminId: 'admin-id', note: 'Проверка' }
    expect(await engine.adjustBalance(user.id, { ...change, reference: 'a', delta: -4 })).toEqual({
      ok: false,
      reason: 'below_zero',
      balance: 3,
    })
    expect(
      await engine.adjustBalance(user.id, { ...change, reference: 'b', delta: ADMIN_BALANCE_MAX }),
    ).toEqual({ ok: false, reason: 'above_max', balance: 3 })
    expect(
      await engine.adjustBalance(user.id, { ...change, reference: 'c', delta: 2, expected: 5 }),
    ).toEqual({ ok: false, reason: 'stale', balance: 3 })
    // A refused reference is not spent: the same one applies once the change fits.
    expect(
      await engine.adjustBalance(user.id, { ...change, reference: 'a', delta: -3, expected: 3 }),
    ).toEqual({ ok: true, applied: true, balance: 0 })
    await outbox.drain()
    expect(
      await prisma.balanceLedger.findMany({ where: { userId: user.id }, select: { amount: true } }),
    ).toEqual([{ amount: -3 }])
  })

  test('bad amounts are refused before they reach Redis', async () => {
    const { engine, prisma } = testEngine()
    const user = await createUser(prisma)
    await expect(engine.credit(user.id, 0, 'topup', 'x')).rejects.toThrow(RangeError)
    await expect(engine.credit(user.id, 1.5, 'topup', 'x')).rejects.toThrow(RangeError)
    const change = { reference: 'x', adminId: 'admin-id', note: 'x' }
    for (const delta of [0, 1.5, ADMIN_BALANCE_MAX + 1, Number.MAX_SAFE_INTEGER * 2]) {
      await expect(engine.adjustBalance(user.id, { ...change, delta })).rejects.toThrow(RangeError)
    }
    await expect(engine.adjustBalance(user.id, { ...change, delta: 1, note: '' })).rejects.toThrow(
      RangeError,
    )
    expect(await engine.credit('nobody', 5, 'topup', 'y')).toEqual({
      ok: false,
      reason: 'user_not_found',
    })
  })

  test('once hot, Redis is the truth: a stale Postgres balance is not loaded over it', async () => {
    const { engine, prisma } = testEngine()
    const user = await createUser(prisma, 5)
    const auction = await liveAuction(engine)
    await engine.bid(auction.id, user.id)
    expect(await engine.loadUser(user.id)).toBe(true)
    expect(await engine.getBalance(user.id)).toBe(4)
  })
})
