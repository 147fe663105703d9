import { afterEach, expect, test, vi } from 'vitest'
import { createUser } from '../../engine/test-support.ts'
import { appEngine } from '../../tests/support/accounts.ts'
import type { AppLoadContext } from '@remix-run/node'
import { deleteUser } from '~/services/delete-user.server.ts'
import { action as logoutAll } from '~/routes/api/api.auth.logout-all.ts'
import { action as logoutPage } from '~/routes/account/logout.tsx'
import { deviceKeys, saveSubscription } from '~/models/push-subscription.server.ts'
import { createSession, destroyAllSessions, destroySession } from '~/services/auth.server.ts'
import { isUnavailable } from '~/utils/logger.server.ts'
import { getRedis } from '~/utils/redis.server.ts'
import {
  optionalUserIdFromCookieHeader,
  sessionCookie,
  SessionsNotForgotten,
} from '~/services/session.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import { endpointKey } from '~/utils/push-device.client.ts'

// Ending sessions on real Redis and Postgres; Redis is made to refuse the "ended" marks.

afterEach(() => {
  vi.restoreAllMocks()
})

function testEngine() {
  const engine = appEngine()
  const signedOut: unknown[] = []
  engine.on('signedOut', (ended) => signedOut.push(ended))
  return { engine, signedOut }
}

async function sessionFor(userId: string) {
  const id = `s-${Math.random().toString(36).slice(2)}`
  await getPrisma().session.create({
    data: { id, userId, expiresAt: new Date(Date.now() + 3_600_000) },
  })
  const header = (await sessionCookie().serialize(id)).split(';')[0]!
  // Used once, so its user id is kept in Redis as a bid call would find it.
  expect(await optionalUserIdFromCookieHeader(header)).toBe(userId)
  return { id, header, request: new Request('http://localhost/', { headers: { Cookie: header } }) }
}

const rowExists = async (id: string) => (await getPrisma().session.count({ where: { id } })) === 1

/** Redis refuses every SET (what a connection that is down answers). */
function refuseSets() {
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), {
    code: 'ECONNREFUSED',
  })
  return vi.spyOn(getRedis(), 'set').mockRejectedValue(refused)
}

test('a logout Redis cannot record is refused and changes nothing; tried again, the session ends', async () => {
  const { engine, signedOut } = testEngine()
  const user = await createUser(getPrisma())
  const session = await sessionFor(user.id)

  const sets = refuseSets()
  const refused = await destroySession(session.request, engine).catch((error: unknown) => error)
  expect(refused).toBeInstanceOf(SessionsNotForgotten)
  expect(sets).toHaveBeenCalledTimes(3)
  // Wherever it is not answered on purpose, it is a 503 "try again" (server/outage.ts).
  expect(isUnavailable(new SessionsNotForgotten(new Error('READONLY')))).toBe(true)
  // The person is told they are still signed in, and they are: nothing was ended.
  expect(await rowExists(session.id)).toBe(true)
  expect(await optionalUserIdFromCookieHeader(session.header)).toBe(user.id)
  expect(signedOut).toEqual([])

  sets.mockRestore()
  expect(await destroySession(session.request, engine)).toMatch(/Max-Age=0/)
  expect(await rowExists(session.id)).toBe(false)
  expect(await optionalUserIdFromCookieHeader(session.header)).toBeNull()
  expect(signedOut).toEqual([{ sessionId: session.id }])
})

test('a refused logout is a 503 that says so: on the page in its language, as {"error"} in the API', async () => {
  const { engine } = testEngine()
  const user = await createUser(getPrisma())
  const session = await sessionFor(user.id)
  const context = { engine } as unknown as AppLoadContext
  const post = (url: string, body?: string) =>
    new Request(`http://localhost${url}`, {
      method: 'POST',
      headers: {
        Cookie: session.header,
        'Accept-Language': 'en',
        ...(body ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
      },
      body,
    })
  refuseSets()
  const page = (await logoutPage({
    request: post('/logout', 'scope=everywhere'),
    context,
    params: {},
  })) as unknown as { data: unknown; init: ResponseInit }
  expect(page.init.status).toBe(503)
  expect(page.data).toEqual({
    everywhere: true,
    message:
      'Could not log out: the service is temporarily unavailable. You are still logged in, please try again in a few seconds.',
  })
  const api = await logoutAll({ request: post('/api/auth/logout-all'), context, params: {} })
  expect(api.status).toBe(503)
  expect(api.headers.get('Set-Cookie')).toBeNull()
  expect(await api.json()).toEqual({ error: expect.stringMatching(/^Could not log out/) as string })
  expect(await optionalUserIdFromCookieHeader(session.header)).toBe(user.id)
})

test("logging out everywhere ends every session of the account and nobody else's", async () => {
  const { engine, signedOut } = testEngine()
  const prisma = getPrisma()
  const [user, other] = [await createUser(prisma), await createUser(prisma)]
  const mine = [await sessionFor(user.id), await sessionFor(user.id)]
  const theirs = await sessionFor(other.id)

  const sets = refuseSets()
  await expect(destroyAllSessions(user.id, engine)).rejects.toBeInstanceOf(SessionsNotForgotten)
  for (const session of mine) {
    expect(await rowExists(session.id)).toBe(true)
    expect(await optionalUserIdFromCookieHeader(session.header)).toBe(user.id)
  }
  sets.mockRestore()

  expect(await destroyAllSessions(user.id, engine)).toMatch(/Max-Age=0/)
  for (const session of mine) {
    expect(await rowExists(session.id)).toBe(false)
    expect(await optionalUserIdFromCookieHeader(session.header)).toBeNull()
  }
  expect(await optionalUserIdFromCookieHeader(theirs.header)).toBe(other.id)
  expect(signedOut).toEqual([{ userId: user.id }])
})

test("an account is deleted only once its sessions' ends are recorded", async () => {
  const { engine, signedOut } = testEngine()
  const prisma = getPrisma()
  const user = await createUser(prisma)
  const session = await sessionFor(user.id)

  const sets = refuseSets()
  await expect(deleteUser(engine, 'an-admin', user.id)).rejects.toBeInstanceOf(SessionsNotForgotten)
  expect(await prisma.user.count({ where: { id: user.id } })).toBe(1)
  expect(await optionalUserIdFromCookieHeader(session.header)).toBe(user.id)
  sets.mockRestore()

  await deleteUser(engine, 'an-admin', user.id)
  expect(await prisma.user.count({ where: { id: user.id } })).toBe(0)
  expect(await optionalUserIdFromCookieHeader(session.header)).toBeNull()
  expect(signedOut).toEqual([{ userId: user.id }])
})

test('another instance stops taking an ended session within two seconds', async () => {
  const { engine } = testEngine()
  const user = await createUser(getPrisma())
  const session = await sessionFor(user.id)
  // A second copy of the module stands for another instance, with its own per-process copy.
  vi.resetModules()
  const other = await import('~/services/session.server.ts')
  expect(await other.optionalUserIdFromCookieHeader(session.header)).toBe(user.id)

  await destroySession(session.request, engine)
  const ended = Date.now()
  expect(await optionalUserIdFromCookieHeader(session.header)).toBeNull()
  while ((await other.optionalUserIdFromCookieHeader(session.header)) !== null) {
    expect(Date.now() - ended).toBeLessThanOrEqual(2_000)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
})

const device = (endpoint: string) => ({
  endpoint: `https://push.example.net/wpush/${endpoint}-${Math.random().toString(36).slice(2)}`,
  keys: { p256dh: 'p256dh', auth: 'auth' },
})
const endpointsOf = async (userId: string) =>
  (
    await getPrisma().pushSubscription.findMany({
      where: { userId },
      orderBy: { createdAt: 'asc' },
      select: { endpoint: true },
    })
  ).map((row) => row.endpoint)

test('a logout ends that device’s Web Push subscription; logging out everywhere ends every one', async () => {
  const { engine } = testEngine()
  const user = await createUser(getPrisma())
  const [phone, laptop] = [await sessionFor(user.id), await sessionFor(user.id)]
  const [onPhone, onLaptop, older] = [device('phone'), device('laptop'), device('older')]
  await saveSubscription(user.id, onPhone, null, phone.id)
  await saveSubscription(user.id, onLaptop, null, laptop.id)
  // Subscribed before subscriptions kept their session.
  await saveSubscription(user.id, older, null)

  await destroySession(phone.request, engine)
  expect(await endpointsOf(user.id)).toEqual([onLaptop.endpoint, older.endpoint])
  // The profile's script on the phone no longer says notifications are on there.
  const known = await deviceKeys(user.id)
  expect(known).not.toContain(await endpointKey(onPhone.endpoint))
  expect(known).toContain(await endpointKey(onLaptop.endpoint))
  await destroyAllSessions(user.id, engine)
  expect(await endpointsOf(user.id)).toEqual([])
})

test('someone else signing in on a device ends the previous person’s subscription there; the same person keeps theirs', async () => {
  const prisma = getPrisma()
  const [first, second] = [await createUser(prisma), await createUser(prisma)]
  const shared = await sessionFor(first.id)
  const onShared = device('shared')
  await saveSubscription(first.id, onShared, null, shared.id)

  // The same person signs in again on it: the subscription moves to the new session.
  const again = await createSession(shared.request, first.id, '127.0.0.1')
  expect(await endpointsOf(first.id)).toEqual([onShared.endpoint])
  const cookie = again.split(';')[0]!
  const request = new Request('http://localhost/', { headers: { Cookie: cookie } })
  // Then someone else signs in on that phone: the first person's alerts stop reaching it.
  await createSession(request, second.id, '127.0.0.1')
  expect(await endpointsOf(first.id)).toEqual([])
  expect(await endpointsOf(second.id)).toEqual([])
})
