import { afterAll, beforeAll, expect, test } from 'vitest'
import { auditBalances } from './balances-audit.ts'
import { createUser, testEngine } from './test-support.ts'

// A refunded bid package's bids taken back (docs/payments.md "Refunds Freedom Pay reports"): as
// many as the balance holds, once per reference, the ledger row saying what was taken, so a
// repeat (also after the loss of Redis) answers what the first call took.

const { engine, outbox, prisma } = testEngine()
beforeAll(() => engine.loadScripts())
afterAll(() => outbox.stop())

/** A person whose balance came through the ledger, as every real one does. */
async function person(bids: number) {
  const user = await createUser(prisma, 0)
  if (bids > 0) await engine.credit(user.id, bids, 'seed', `seed:${user.id}`)
  return user
}

test('takes what the balance holds, up to the bids asked, once per reference', async () => {
  const rich = await person(80)
  expect(await engine.takeBack(rich.id, 50, 'payment-refund:a')).toEqual({
    ok: true,
    applied: true,
    taken: 50,
    balance: 30,
  })
  const poor = await person(20)
  expect(await engine.takeBack(poor.id, 50, 'payment-refund:b')).toMatchObject({
    applied: true,
    taken: 20,
    balance: 0,
  })
  const empty = await person(0)
  expect(await engine.takeBack(empty.id, 50, 'payment-refund:c')).toMatchObject({
    applied: true,
    taken: 0,
    balance: 0,
  })
  // A repeat takes nothing more; until its ledger row is written it cannot say what was taken.
  await engine.credit(poor.id, 10, 'topup', 'payment:later')
  const early = await engine.takeBack(poor.id, 50, 'payment-refund:b')
  expect(early).toMatchObject({ ok: true, applied: false, balance: 10 })
  await outbox.drain()
  for (const [user, reference, taken] of [
    [rich, 'payment-refund:a', 50],
    [poor, 'payment-refund:b', 20],
    [empty, 'payment-refund:c', 0],
  ] as const) {
    expect(await engine.takeBack(user.id, 50, reference)).toMatchObject({
      applied: false,
      taken,
    })
    expect(
      await prisma.balanceLedger.findUnique({ where: { reference }, select: { amount: true } }),
    ).toEqual({ amount: 0 - taken })
  }
  expect(await engine.getBalance(poor.id)).toBe(10)
  const audit = await auditBalances(engine)
  expect(
    audit.mismatches.filter((row) => [rich.id, poor.id, empty.id].includes(row.userId)),
  ).toEqual([])
  // After Redis forgot the reference, the ledger still knows it.
  await engine.redis.srem(engine.keys.references, 'payment-refund:a')
  expect(await engine.takeBack(rich.id, 50, 'payment-refund:a')).toMatchObject({
    applied: false,
    taken: 50,
    balance: 30,
  })
  expect(await engine.takeBack('no-such-user', 5, 'payment-refund:d')).toEqual({
    ok: false,
    reason: 'user_not_found',
  })
})
