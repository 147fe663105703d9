import { expect, test } from 'vitest'
import {
  appEngine,
  loginRequest as request,
  newAccount as account,
  uniqueName,
} from '../../tests/support/accounts.ts'
import { clientKey, limits, loginBackoff } from '~/services/rate-limit.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import { getEnv } from '~/utils/env.server.ts'
import { logIn } from './login.server.ts'

// Logging in as the /login page and the JSON API share it: its outcomes, each with the status
// both answer with. Accounts are made the way both make them (registration.server.ts).

const unique = () => uniqueName('lg')
const newAccount = (clientIp?: string) => account('lg', clientIp)

const engine = appEngine()
/** Where a login comes from, as the load context gives it. */
const from = (clientIp: string) => ({ engine, clientIp })

test('the right password starts a session; a wrong one and an unknown login are the same 401', async () => {
  const { username, userId } = await newAccount()
  const ok = await logIn(request(), from('10.0.1.1'), {
    username: username.toUpperCase(),
    password: 'secret12',
  })
  expect(ok).toMatchObject({ ok: true, userId })
  if (!ok.ok) return
  expect(ok.cookie).toContain('HttpOnly')
  expect(await getPrisma().session.count({ where: { userId } })).toBe(2)

  const wrong = await logIn(request(), from('10.0.1.1'), { username, password: 'secret13' })
  const unknown = await logIn(request(), from('10.0.1.1'), {
    username: unique(),
    password: 'secret12',
  })
  expect(wrong).toEqual({ ok: false, status: 401, message: 'auth.invalidCredentials' })
  expect(unknown).toEqual(wrong)
  const byEmail = await logIn(request(), from('10.0.1.1'), {
    username: `${username}@MAIL.kg`,
    password: 'secret12',
  })
  expect(byEmail).toMatchObject({ ok: true, userId })
})

const scaled = (count: number) => Math.max(1, Math.round(count * getEnv().RATE_LIMIT_SCALE))
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const wrong = { password: 'wrong-one' }

/** The failures a username may have from one address before it waits. */
async function failFreely(username: string, clientIp: string) {
  for (let i = 0; i < scaled(loginBackoff.freeFailures); i += 1)
    expect(await logIn(request(), from(clientIp), { username, ...wrong })).toMatchObject({
      status: 401,
    })
}

test('failures from one address slow that address down; the right password from another goes through', async () => {
  const { username, userId } = await newAccount()
  const statuses: number[] = []
  for (let i = 0; i < scaled(loginBackoff.freeFailures) + 10; i += 1) {
    const outcome = await logIn(request(), from('10.0.2.1'), { username, ...wrong })
    statuses.push(outcome.ok ? 200 : outcome.status)
  }
  // Asked at once (a refused try costs no password check), the right password waits too.
  expect(await logIn(request(), from('10.0.2.1'), { username, password: 'secret12' })).toEqual({
    ok: false,
    status: 429,
    seconds: 1,
  })
  expect(
    await logIn(request(), from('10.0.3.1'), { username, password: 'secret12' }),
  ).toMatchObject({
    ok: true,
    userId,
  })
  // The first failures are answered, the tries after them only get the wait, however many.
  expect(statuses).toEqual([
    ...Array<number>(scaled(loginBackoff.freeFailures)).fill(401),
    ...Array<number>(10).fill(429),
  ])
})

test('each further failure from the address doubles the wait', async () => {
  const { username } = await newAccount()
  await failFreely(username, '10.0.4.1')
  const waits: number[] = []
  for (let i = 0; i < 3; i += 1) {
    const refused = await logIn(request(), from('10.0.4.1'), { username, ...wrong })
    expect(refused).toMatchObject({ status: 429 })
    if (refused.ok || refused.status !== 429) return
    waits.push(refused.seconds)
    if (i === 2) break
    await sleep(refused.seconds * 1000 + 100)
    expect(await logIn(request(), from('10.0.4.1'), { username, ...wrong })).toMatchObject({
      status: 401,
    })
  }
  expect(waits).toEqual([1, 2, 4])
})

test('a success clears the failures from its address', async () => {
  const { username } = await newAccount()
  await failFreely(username, '10.0.5.1')
  await sleep(loginBackoff.firstMs + 100)
  expect(
    await logIn(request(), from('10.0.5.1'), { username, password: 'secret12' }),
  ).toMatchObject({
    ok: true,
  })
  await failFreely(username, '10.0.5.1')
})

test('failures from many addresses make each failing one wait a moment, never the right password', async () => {
  const { username, userId } = await newAccount()
  for (let i = 0; i <= scaled(limits.loginPerUsername.limit); i += 1) {
    const failed = await logIn(request(), from(`10.0.6.${i}`), { username, ...wrong })
    expect(failed).toMatchObject({ status: 401 })
  }
  expect(
    await logIn(request(), from('10.0.7.1'), { username, password: 'secret12' }),
  ).toMatchObject({
    ok: true,
    userId,
  })
  // A mistyped password there now waits a couple of seconds at most before the next try.
  expect(await logIn(request(), from('10.0.7.2'), { username, ...wrong })).toMatchObject({
    status: 401,
  })
  const refused = await logIn(request(), from('10.0.7.2'), { username, password: 'secret12' })
  expect(refused).toMatchObject({ status: 429 })
  if (refused.ok || refused.status !== 429) return
  expect(refused.seconds).toBeLessThanOrEqual(loginBackoff.busyUsernameMs / 1000)
  await sleep(refused.seconds * 1000 + 100)
  expect(
    await logIn(request(), from('10.0.7.2'), { username, password: 'secret12' }),
  ).toMatchObject({
    ok: true,
  })
})

test('one address may try only so many logins a minute, whatever the usernames', async () => {
  const allowed = scaled(limits.loginPerIp.limit)
  for (let i = 0; i < allowed; i += 1) {
    const failed = await logIn(request(), from('10.0.8.1'), { username: unique(), ...wrong })
    expect(failed).toMatchObject({ status: 401 })
  }
  const limited = await logIn(request(), from('10.0.8.1'), { username: unique(), ...wrong })
  expect(limited).toMatchObject({ status: 429 })
  if (limited.ok || limited.status !== 429) return
  expect(limited.seconds).toBeLessThanOrEqual(limits.loginPerIp.windowSeconds)
})

test('an IPv6 client is counted by its /64 network, an IPv4-mapped one as IPv4', async () => {
  expect(clientKey('203.0.113.5')).toBe('203.0.113.5')
  expect(clientKey('::ffff:203.0.113.5')).toBe('203.0.113.5')
  expect(clientKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64')
  expect(clientKey('2001:DB8:0001:0002::9')).toBe('2001:db8:1:2::/64')
  expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64')
  expect(clientKey('::1')).toBe('0:0:0:0::/64')
  expect(clientKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64')
  expect(clientKey('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64')

  // Another address of the same /64 network continues that network's count: within the free
  // failures a new network would have, it is made to wait. (Each wait starts before its slow
  // password check, so on a busy machine the first one may be over before the next try: the
  // waits double, and one of the next tries meets one.)
  const { username } = await newAccount()
  await failFreely(username, '2001:db8:9:9::a')
  const statuses: number[] = []
  for (let i = 0; i < scaled(loginBackoff.freeFailures) - 1 && !statuses.includes(429); i += 1) {
    const outcome = await logIn(request(), from('2001:db8:9:9::b'), { username, ...wrong })
    statuses.push(outcome.ok ? 200 : outcome.status)
  }
  expect(statuses).toContain(429)
})
