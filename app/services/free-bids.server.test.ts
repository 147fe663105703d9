import { Redis } from 'ioredis'
import { afterAll, expect, test } from 'vitest'
import { Engine, OutboxWorker } from '../../engine/index.ts'
import { FREE_BIDS, freeBidsReference } from '~/models/user.server.ts'
import { getRedis } from '~/utils/redis.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import { getEnv } from '~/utils/env.server.ts'
import { logIn } from './login.server.ts'
import { register } from './registration.server.ts'

// A registration whose free bids could not be credited (Redis away at that moment) gets them
// exactly once later: at a sign-in, or when the same person registers again
// (docs/decisions/043-free-bids-owed.md).

const engine = new Engine({ redis: getRedis(), prisma: getPrisma(), prefix: getEnv().REDIS_PREFIX })
const outbox = new OutboxWorker(engine, 'free-bids-test', getEnv().DATABASE_URL)
// An engine whose Redis cannot be reached: every credit through it fails.
const away = new Redis('redis://127.0.0.1:1', {
  lazyConnect: true,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
})
away.on('error', () => {})
const redisAway = new Engine({ redis: away, prisma: getPrisma(), prefix: getEnv().REDIS_PREFIX })
afterAll(async () => {
  await outbox.stop()
  away.disconnect()
})

let counter = 0
const request = () => new Request('http://localhost/login', { method: 'POST' })
const password = 'secret12'

/** Registers while the credit fails; the account exists and holds no bids yet. */
async function registeredWhileRedisAway(clientIp: string) {
  const username = `fb${Date.now().toString(36)}${counter++}`
  const input = { username, email: `${username}@mail.kg`, password }
  const outcome = await register(request(), { engine: redisAway, clientIp }, input)
  if (!outcome.ok) throw new Error(`registration refused: ${outcome.status}`)
  expect(await engine.getBalance(outcome.userId)).toBe(0)
  return { ...input, userId: outcome.userId }
}

async function ledgerOf(userId: string) {
  await outbox.drain()
  return getPrisma().balanceLedger.findMany({
    where: { userId },
    select: { amount: true, reason: true, reference: true },
  })
}
const oneGrant = (userId: string) => [
  { amount: FREE_BIDS, reason: 'registration_bonus', reference: freeBidsReference(userId) },
]

test('the next sign-in gives the free bids, and later sign-ins do not give them again', async () => {
  const { username, userId } = await registeredWhileRedisAway('10.0.20.1')
  for (let i = 0; i < 3; i++) {
    const signedIn = await logIn(
      request(),
      { engine, clientIp: '10.0.20.2' },
      { username, password },
    )
    expect(signedIn).toMatchObject({ ok: true, userId })
    expect(await engine.getBalance(userId)).toBe(FREE_BIDS)
  }
  expect(await ledgerOf(userId)).toEqual(oneGrant(userId))
  expect(await getPrisma().user.findUniqueOrThrow({ where: { id: userId } })).toMatchObject({
    bidBalance: FREE_BIDS,
    freeBidsPending: false,
  })
})

test('sign-ins at the same moment give the free bids once', async () => {
  const { username, userId } = await registeredWhileRedisAway('10.0.21.1')
  const outcomes = await Promise.all(
    Array.from({ length: 6 }, (_, i) =>
      logIn(request(), { engine, clientIp: `10.0.21.${10 + i}` }, { username, password }),
    ),
  )
  expect(outcomes.every((outcome) => outcome.ok)).toBe(true)
  expect(await engine.getBalance(userId)).toBe(FREE_BIDS)
  expect(await ledgerOf(userId)).toEqual(oneGrant(userId))
})

test('registering again with the same name, email and password finishes that registration once', async () => {
  const { username, email, userId } = await registeredWhileRedisAway('10.0.22.1')
  const context = { engine, clientIp: '10.0.22.2' }
  // Someone else (another password) cannot take it over: the name is taken.
  expect(await register(request(), context, { username, email, password: 'other-pass' })).toEqual({
    ok: false,
    status: 409,
    field: 'username',
    message: 'validation.usernameTaken',
  })
  expect(await register(request(), context, { username, email, password })).toMatchObject({
    ok: true,
    userId,
  })
  expect(await engine.getBalance(userId)).toBe(FREE_BIDS)
  // Finished: the name is taken from now on, and nothing is given twice.
  expect(await register(request(), context, { username, email, password })).toMatchObject({
    ok: false,
    status: 409,
  })
  await logIn(request(), context, { username, password })
  expect(await engine.getBalance(userId)).toBe(FREE_BIDS)
  expect(await ledgerOf(userId)).toEqual(oneGrant(userId))
})

test('accounts that owe nothing get nothing at sign-in', async () => {
  const username = `fb${Date.now().toString(36)}${counter++}`
  const outcome = await register(
    request(),
    { engine, clientIp: '10.0.23.1' },
    { username, email: `${username}@mail.kg`, password },
  )
  if (!outcome.ok) throw new Error('registration refused')
  // An admin's debit to 0, then a sign-in: the free bids are not given again.
  await engine.adjustBalance(outcome.userId, {
    delta: -FREE_BIDS,
    reference: `test:${outcome.userId}`,
    adminId: 'admin',
    note: 'Списание',
  })
  await logIn(request(), { engine, clientIp: '10.0.23.2' }, { username, password })
  expect(await engine.getBalance(outcome.userId)).toBe(0)
})
