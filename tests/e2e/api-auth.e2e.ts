import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, test } from 'vitest'
import { call, newAccount, sessionOf, unique } from './api.ts'
import { secondServer } from './second-server.ts'

// Runs alone: its failed logins count against the one address (127.0.0.1) every other file logs in
// from.

// The auth JSON API of docs/rules.md#calls against the production server.

describe('auth API', () => {
  test('register -> me -> logout -> me', async () => {
    const name = unique()
    const registered = await call('/api/auth/register', {
      body: { username: name, email: `${name}@mail.kg`, password: 'secret12' },
    })
    expect(registered.status).toBe(201)
    expect(registered.json.user).toMatchObject({
      username: name,
      email: `${name}@mail.kg`,
      bidBalance: 5,
      role: 'user',
    })
    expect(registered.json.user).not.toHaveProperty('passwordHash')
    expect(registered.cookie).toMatch(/HttpOnly/i)
    expect(registered.cookie).toMatch(/SameSite=Lax/i)
    const cookie = sessionOf(registered.cookie)

    const me = await call('/api/auth/me', { method: 'GET', cookie })
    expect(me.status).toBe(200)
    expect(me.json.user).toMatchObject({ username: name, bidBalance: 5 })

    expect((await call('/api/auth/logout', { cookie })).status).toBe(200)
    const after = await call('/api/auth/me', { method: 'GET', cookie })
    expect(after.status).toBe(401)
    expect(after.json).toEqual({ error: 'Требуется вход в систему' })
  })

  test('login: right password 200 with a new session, wrong password 401 with the same message as an unknown user', async () => {
    const name = unique()
    await call('/api/auth/register', {
      body: { username: name, email: `${name}@mail.kg`, password: 'secret12' },
    })
    const ok = await call('/api/auth/login', { body: { username: name, password: 'secret12' } })
    expect(ok.status).toBe(200)
    expect(ok.json.user).toMatchObject({ username: name })
    const wrong = await call('/api/auth/login', { body: { username: name, password: 'nope-nope' } })
    const unknown = await call('/api/auth/login', {
      body: { username: `${name}x`, password: 'nope-nope' },
    })
    expect(wrong).toMatchObject({ status: 401, json: { error: 'Неверные учетные данные' } })
    expect(unknown).toMatchObject({ status: 401, json: { error: 'Неверные учетные данные' } })
    const english = await call('/api/auth/login', {
      body: { username: name, password: 'nope-nope' },
      lang: 'en',
    })
    expect(english.json.error).not.toBe('Неверные учетные данные')
  })

  test('duplicate username or email is a 409 with a message', async () => {
    const name = unique()
    await call('/api/auth/register', {
      body: { username: name, email: `${name}@mail.kg`, password: 'secret12' },
    })
    const sameName = await call('/api/auth/register', {
      body: { username: name.toUpperCase(), email: `other${name}@mail.kg`, password: 'secret12' },
    })
    expect(sameName).toMatchObject({
      status: 409,
      json: { error: 'Это имя пользователя уже занято' },
    })
    const sameEmail = await call('/api/auth/register', {
      body: { username: `${name}b`, email: `${name.toUpperCase()}@MAIL.KG`, password: 'secret12' },
    })
    expect(sameEmail).toMatchObject({
      status: 409,
      json: { error: 'Этот email уже зарегистрирован' },
    })
  })

  test('malformed bodies are 400 with a message, never 500', async () => {
    const bodies: Array<{ raw?: string; body?: unknown }> = [
      { raw: '{not json' },
      { raw: '[]' },
      { raw: '"text"' },
      { body: { username: 12, email: true, password: null } },
      { body: { username: 'ab', email: 'x@y.kg', password: 'secret12' } },
      { body: { username: 'abc', email: 'nope', password: 'secret12' } },
      { body: { username: 'abc', email: 'a@b.kg', password: '123' } },
      { body: { username: 'a'.repeat(10_000), email: 'a@b.kg', password: 'secret12' } },
    ]
    for (const path of ['/api/auth/register', '/api/auth/login']) {
      for (const body of bodies) {
        const result = await call(path, body)
        expect(
          result.status,
          `${path} ${JSON.stringify(body).slice(0, 60)}`,
        ).toBeGreaterThanOrEqual(400)
        expect(result.status).toBeLessThan(500)
        expect(typeof result.json?.error).toBe('string')
      }
    }
    const huge = await call('/api/auth/login', {
      raw: JSON.stringify({ username: 'x', password: 'y'.repeat(100_000) }),
    })
    expect(huge.status).toBe(413)
  })

  test('availability checks answer {valid, message}', async () => {
    const name = unique()
    await call('/api/auth/register', {
      body: { username: name, email: `${name}@mail.kg`, password: 'secret12' },
    })
    expect((await call('/api/auth/validate-username', { body: { username: name } })).json).toEqual({
      valid: false,
      message: 'Это имя пользователя уже занято',
    })
    expect(
      (await call('/api/auth/validate-username', { body: { username: `${name}z` } })).json,
    ).toMatchObject({ valid: true })
    expect(
      (await call('/api/auth/validate-username', { body: { username: 'ab' } })).json,
    ).toMatchObject({ valid: false })
    expect(
      (await call('/api/auth/validate-email', { body: { email: `${name}@mail.kg` } })).json,
    ).toMatchObject({ valid: false })
    expect((await call('/api/auth/validate-phone', { body: { phone: '+99655' } })).json).toEqual({
      valid: false,
      message: 'Введите номер в формате +996XXXXXXXXX',
    })
    expect(
      (await call('/api/auth/validate-phone', { body: { phone: '+996700000001' } })).json,
    ).toMatchObject({ valid: true })
  })

  test('wrong methods are 405 with a JSON error', async () => {
    const result = await call('/api/auth/login', { method: 'GET' })
    expect(result.status).toBe(405)
    expect(typeof result.json.error).toBe('string')
  })

  test('wrong passwords slow down their address; a forged X-Forwarded-For is no other address', async () => {
    // The e2e server trusts no proxy (TRUST_PROXY=0): every request here comes from 127.0.0.1,
    // whatever the header says. A username may fail 5 x RATE_LIMIT_SCALE 20 times from one
    // address before it waits.
    const { name } = await newAccount()
    const statuses: number[] = []
    for (let i = 0; i < 5 * 20; i++) {
      const failed = await call('/api/auth/login', {
        body: { username: name, password: `wrong${i}` },
        headers: { 'X-Forwarded-For': `198.51.100.${i}` },
      })
      statuses.push(failed.status)
    }
    expect(statuses).toEqual(Array<number>(5 * 20).fill(401))
    const refused = await call('/api/auth/login', {
      body: { username: name, password: 'secret12' },
      headers: { 'X-Forwarded-For': '203.0.113.50' },
    })
    expect(refused).toMatchObject({ status: 429, retryAfter: '1' })
    expect(String(refused.json.error)).toMatch(/Слишком много попыток/)
  })
})

describe('behind a proxy named by its addresses (TRUST_PROXY=loopback)', () => {
  const start = secondServer('proxied')

  test('the address the proxy adds is counted, not one the client wrote before it', async () => {
    const { name } = await newAccount()
    const url = await start({ TRUST_PROXY: 'loopback', RATE_LIMIT_SCALE: '1' })
    const login = async (password: string, forwardedFor: string) => {
      const response = await fetch(`${url}/api/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': forwardedFor },
        body: JSON.stringify({ username: name, password }),
      })
      return { status: response.status, retryAfter: response.headers.get('retry-after') }
    }
    // The client writes a new address each time; the proxy appends the one it sees. Failures
    // are made until the wait is 4 s (5 free, then 1 s and 2 s waits, each waited out as the
    // server says), so the right password that follows comes well within it however busy the
    // machine: a 1 s wait could be over before the next request arrives.
    const statuses: number[] = []
    for (let i = 0; statuses.length < 7; i++) {
      const answer = await login('wrong-one', `203.0.113.${i}, 198.51.100.20`)
      if (answer.status === 429) await sleep(Number(answer.retryAfter) * 1000)
      else statuses.push(answer.status)
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 401])
    const refused = await login('secret12', '203.0.113.99, 198.51.100.20')
    expect(refused.status).toBe(429)
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1)
    // Another client of the proxy logs in at once.
    expect((await login('secret12', '198.51.100.21')).status).toBe(200)
  })
})

describe('registrations behind a proxy (TRUST_PROXY=loopback), limits at production size', () => {
  const start = secondServer('farm')

  test('one IPv6 /64 is one client: new addresses of it do not buy new free grants', async () => {
    const url = await start({ TRUST_PROXY: 'loopback', RATE_LIMIT_SCALE: '1' })
    const register = async (forwardedFor: string) => {
      const name = unique()
      const response = await fetch(`${url}/api/auth/register`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': forwardedFor },
        body: JSON.stringify({ username: name, email: `${name}@mail.kg`, password: 'secret12' }),
      })
      return response.status
    }
    const statuses: number[] = []
    // A new address of the same /64 for every account, as a farm of free bids would use.
    for (let i = 1; i <= 30; i++) statuses.push(await register(`2001:db8:5:6::${i.toString(16)}`))
    expect(statuses).toEqual(Array<number>(30).fill(201))
    expect(await register('2001:db8:5:6:aaaa:bbbb:cccc:dddd')).toBe(429)
    // Another network registers at once.
    expect(await register('2001:db8:5:7::1')).toBe(201)
  })
})
