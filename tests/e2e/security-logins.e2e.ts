import { describe, expect, test } from 'vitest'
import { call, newAccount, sessionOf } from './api.ts'

// Runs alone: it measures how long logins take, which other files' load would blur.

// Accounts under attack: a planted session id, and guessing which usernames exist from the time a
// login takes (issue: reliability and security).

const account = newAccount

const me = (cookie: string) => call('/api/auth/me', { method: 'GET', cookie })

describe('sessions and logins', () => {
  test('a login always starts a new session and ends the one the browser brought', async () => {
    const { name, cookie: planted } = await account()
    const login = await call('/api/auth/login', {
      cookie: planted,
      body: { username: name, password: 'secret12' },
    })
    expect(login.status).toBe(200)
    const fresh = sessionOf(login.cookie)
    expect(fresh).not.toBe('')
    expect(fresh).not.toBe(planted)
    expect((await me(fresh)).status).toBe(200)
    // Whoever planted or stole the earlier cookie is logged out by the login.
    expect((await me(planted)).status).toBe(401)
  })

  test('an unknown username costs a login as much time as a wrong password', async () => {
    const { name } = await account()
    const timed = async (username: string) => {
      const started = performance.now()
      const answer = await call('/api/auth/login', {
        body: { username, password: 'wrong-password' },
      })
      expect(answer).toMatchObject({ status: 401, json: { error: 'Неверные учетные данные' } })
      return performance.now() - started
    }
    // The other test lanes share this machine's CPU, so one login can take several times
    // another's: each unknown username's login is timed right beside a wrong password's (in
    // turns, first one then the other), and the middle one of those ratios is compared.
    const ratios: number[] = []
    for (let i = 0; i < 11; i++) {
      const unknownFirst = i % 2 === 1
      const first = await timed(unknownFirst ? `${name}-nobody` : name)
      const second = await timed(unknownFirst ? name : `${name}-nobody`)
      ratios.push(unknownFirst ? first / second : second / first)
    }
    const middle = [...ratios].sort((a, b) => a - b)[ratios.length >> 1]!
    // Both verify an argon2id hash (tens of ms); a lookup alone would be a few ms.
    expect(middle).toBeGreaterThan(0.5)
    expect(middle).toBeLessThan(2)
  })
})
