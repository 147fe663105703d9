import { afterAll, expect, test } from 'vitest'
import { Engine, OutboxWorker } from '../../engine/index.ts'
import { DomainError } from '~/utils/domain-error.ts'
import { editUser } from '~/models/admin-users.server.ts'
import { getRedis } from '~/utils/redis.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import { getEnv } from '~/utils/env.server.ts'

// An admin's balance change as the users page and PATCH /api/admin/users/{id} make it
// (docs/decisions/042-balance-set-once.md): a set recorded as a difference, and once per key.

const engineWith = (replicas = { count: 0, timeoutMs: 0 }) =>
  new Engine({ redis: getRedis(), prisma: getPrisma(), prefix: getEnv().REDIS_PREFIX, replicas })
const engine = engineWith()
const outbox = new OutboxWorker(engine, 'admin-balance-test', getEnv().DATABASE_URL)
afterAll(() => outbox.stop())

let counter = 0
async function person(bidBalance: number) {
  const name = `ab${Date.now().toString(36)}${counter++}`
  return getPrisma().user.create({
    data: { username: name, email: `${name}@mail.kg`, bidBalance },
    select: { id: true },
  })
}
const admin = () => person(0)

async function adminRows(userId: string) {
  await outbox.drain()
  return getPrisma().balanceLedger.findMany({
    where: { userId },
    orderBy: { createdAt: 'asc' },
    select: { amount: true, balanceAfter: true, reason: true, adminId: true, note: true },
  })
}

test('a plain bidBalance sets the balance; the ledger keeps the difference from the balance at that moment', async () => {
  const [{ id: adminId }, { id }] = await Promise.all([admin(), person(5)])
  // The admin saw 5; a top-up of 50 lands before the save.
  expect(await engine.credit(id, 50, 'topup', `payment:${id}`)).toMatchObject({ balance: 55 })
  expect(await editUser(engine, adminId, id, { bidBalance: 20 })).toMatchObject({ bidBalance: 20 })
  // The same value again changes nothing and writes nothing.
  expect(await editUser(engine, adminId, id, { bidBalance: 20 })).toMatchObject({ bidBalance: 20 })
  // With the balance seen as a guard, a moved balance is refused.
  await expect(
    editUser(engine, adminId, id, { bidBalance: 3, expectedBidBalance: 5, bidBalanceReason: 'x' }),
  ).rejects.toMatchObject({ status: 409, key: 'errors.balanceStale' })
  expect(await adminRows(id)).toEqual([
    { amount: 50, balanceAfter: 55, reason: 'topup', adminId: null, note: null },
    { amount: -35, balanceAfter: 20, reason: 'admin_adjust', adminId, note: null },
  ])
  expect(await getPrisma().user.findUniqueOrThrow({ where: { id } })).toMatchObject({
    bidBalance: 20,
  })
})

test('a change sent again with its idempotency key is applied once, also at once and as a set', async () => {
  const [{ id: adminId }, { id }] = await Promise.all([admin(), person(5)])
  const gift = { bidBalanceAdjustment: { delta: 10, reason: 'Подарок' } }
  await Promise.all([1, 2, 3].map(() => editUser(engine, adminId, id, gift, 'form-1')))
  expect(await engine.getBalance(id)).toBe(15)
  // A set sent again after the balance moved does not set it a second time.
  await editUser(engine, adminId, id, { bidBalance: 40 }, 'form-2')
  await engine.credit(id, 1, 'refund', `refund:${id}`)
  await editUser(engine, adminId, id, { bidBalance: 40 }, 'form-2')
  expect(await engine.getBalance(id)).toBe(41)
  // The key is the admin's for this user: the same key for another user is another change.
  const other = await person(0)
  await editUser(engine, adminId, other.id, gift, 'form-1')
  expect(await engine.getBalance(other.id)).toBe(10)
  expect((await adminRows(id)).map((row) => row.amount)).toEqual([10, 25, 1])
})

test('a change retried after no replica confirmed it in time is applied once', async () => {
  const [{ id: adminId }, { id }] = await Promise.all([admin(), person(5)])
  // No replica answers here: the write stays on the primary and the call says it is unconfirmed.
  const waiting = engineWith({ count: 1, timeoutMs: 50 })
  let error: unknown
  try {
    error = await editUser(
      waiting,
      adminId,
      id,
      { firstName: 'Айбек', bidBalanceAdjustment: { delta: 10, reason: 'Подарок' } },
      'retry-1',
    ).catch((caught: unknown) => caught)
  } finally {
    await waiting.close()
  }
  // The retry (the replica back, or another instance) confirms it and saves the rest.
  await editUser(
    engine,
    adminId,
    id,
    { firstName: 'Айбек', bidBalanceAdjustment: { delta: 10, reason: 'Подарок' } },
    'retry-1',
  )
  expect(await engine.getBalance(id)).toBe(15)
  expect(await adminRows(id)).toEqual([
    { amount: 10, balanceAfter: 15, reason: 'admin_adjust', adminId, note: 'Подарок' },
  ])
  // The first answer said so, in words for the page and the API (503).
  expect(error).toBeInstanceOf(DomainError)
  expect(error).toMatchObject({ status: 503, key: 'errors.notConfirmed' })
  expect(await getPrisma().user.findUniqueOrThrow({ where: { id } })).toMatchObject({
    firstName: 'Айбек',
    bidBalance: 15,
  })
})

test('a change or a credit sent again after Redis lost its data is not applied again', async () => {
  const [{ id: adminId }, { id }] = await Promise.all([admin(), person(5)])
  const gift = { bidBalanceAdjustment: { delta: 10, reason: 'Подарок' } }
  await editUser(engine, adminId, id, gift, 'lost-1')
  await engine.credit(id, 50, 'topup', `payment:lost-${id}`)
  await outbox.drain()
  // Redis loses its data (docs/operations.md): the references it applied go with it.
  await engine.redis.del(engine.keys.references, engine.keys.user(id))
  await editUser(engine, adminId, id, gift, 'lost-1')
  expect(await engine.credit(id, 50, 'topup', `payment:lost-${id}`)).toEqual({
    ok: true,
    applied: false,
    balance: 65,
  })
  expect(await engine.getBalance(id)).toBe(65)
  expect((await adminRows(id)).map((row) => row.amount)).toEqual([10, 50])
  expect(await getPrisma().user.findUniqueOrThrow({ where: { id } })).toMatchObject({
    bidBalance: 65,
  })
})
