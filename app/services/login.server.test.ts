import { expect, test } from 'vitest'
import { Engine } from '../../engine/index.ts'
import { getRedis } from '~/services/redis.server.ts'
import { limits } from '~/services/rate-limit.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import { getEnv } from '~/utils/env.server.ts'
import { logIn } from './login.server.ts'
import { register } from './registration.server.ts'

// Logging in as the /login page and the JSON API share it: its outcomes, each with the status
// both answer with. Accounts are made the way both make them (registration.server.ts).

let counter = 0
const unique = () => `lg${Date.now().toString(36)}${counter++}`
const request = () => new Request('http://localhost/login', { method: 'POST' })

async function newAccount(clientIp = '10.0.0.1') {
  const engine = new Engine({
    redis: getRedis(),
    prisma: getPrisma(),
    prefix: getEnv().REDIS_PREFIX,
  })
  const username = unique()
  const outcome = await register(
    request(),
    { engine, clientIp },
    { username, email: `${username}@mail.kg`, password: 'secret12' },
  )
  if (!outcome.ok) throw new Error(`registration refused: ${outcome.status}`)
  return { engine, username, userId: outcome.userId }
}

test('the right password starts a session; a wrong one and an unknown login are the same 401', async () => {
  const { username, userId } = await newAccount()
  const ok = await logIn(request(), '10.0.1.1', {
    username: username.toUpperCase(),
    password: 'secret12',
  })
  expect(ok).toMatchObject({ ok: true, userId })
  if (!ok.ok) return
  expect(ok.cookie).toContain('HttpOnly')
  expect(await getPrisma().session.count({ where: { userId } })).toBe(2)

  const wrong = await logIn(request(), '10.0.1.1', { username, password: 'secret13' })
  const unknown = await logIn(request(), '10.0.1.1', { username: unique(), password: 'secret12' })
  expect(wrong).toEqual({ ok: false, status: 401, message: 'auth.invalidCredentials' })
  expect(unknown).toEqual(wrong)
  const byEmail = await logIn(request(), '10.0.1.1', {
    username: `${username}@MAIL.kg`,
    password: 'secret12',
  })
  expect(byEmail).toMatchObject({ ok: true, userId })
})

test('failures past the per-username limit are a 429, even with the right password', async () => {
  const { username } = await newAccount()
  const { limit } = limits.loginPerUsername
  const scale = getEnv().RATE_LIMIT_SCALE
  const allowed = Math.max(1, Math.round(limit * scale))
  for (let i = 0; i < allowed; i += 1) {
    const failed = await logIn(request(), `10.0.2.${i}`, { username, password: 'wrong-one' })
    expect(failed).toMatchObject({ status: 401 })
  }
  const limited = await logIn(request(), '10.0.3.1', { username, password: 'secret12' })
  expect(limited).toMatchObject({ ok: false, status: 429 })
  if (limited.ok || limited.status !== 429) return
  expect(limited.seconds).toBeGreaterThan(0)
  expect(limited.seconds).toBeLessThanOrEqual(limits.loginPerUsername.windowSeconds)
})

test('a success forgets the username’s failures', async () => {
  const { username } = await newAccount()
  const allowed = Math.max(1, Math.round(limits.loginPerUsername.limit * getEnv().RATE_LIMIT_SCALE))
  for (let i = 0; i < allowed - 1; i += 1)
    await logIn(request(), `10.0.4.${i}`, { username, password: 'wrong-one' })
  expect(await logIn(request(), '10.0.5.1', { username, password: 'secret12' })).toMatchObject({
    ok: true,
  })
  for (let i = 0; i < allowed - 1; i += 1) {
    const failed = await logIn(request(), `10.0.6.${i}`, { username, password: 'wrong-one' })
    expect(failed).toMatchObject({ status: 401 })
  }
})
