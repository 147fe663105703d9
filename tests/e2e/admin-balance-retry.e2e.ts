import { afterAll, describe, expect, inject, test } from 'vitest'
import { startApp, type App } from '../setup/stack.ts'
import { call, newAccount, sessionOf, unique } from './api.ts'
import { e2eDatabase } from './auctions.ts'
import { SESSION_SECRET } from './secrets.ts'

// An admin's balance change retried after no replica confirmed it in time is applied once
// (docs/decisions/037-acknowledged-after-a-replica.md, 042-balance-set-once.md).

describe('an admin balance change retried after a replica timeout', () => {
  let waiting: App | undefined
  afterAll(() => {
    // Killed rather than stopped: it has no outbox of its own to write, the site's server does.
    waiting?.child.kill('SIGKILL')
  })

  test('the first answer says it is not confirmed; the retry with its key confirms it once', async () => {
    // An instance of this site (same Redis keys, same database) whose writes wait for a replica
    // that never answers.
    waiting = await startApp({
      databaseUrl: inject('e2eDatabaseUrl'),
      redisUrl: inject('e2eRedisUrl'),
      prefix: inject('e2eRedisPrefix'),
      label: 'waiting',
      env: {
        SESSION_SECRET,
        ENGINE_WORKERS: '0',
        REDIS_WAIT_REPLICAS: '1',
        REDIS_WAIT_TIMEOUT_MS: '100',
      },
    })
    const login = await call('/api/auth/login', {
      body: { username: 'admin', password: 'admin123' },
    })
    const admin = sessionOf(login.cookie)
    const person = await newAccount()
    const key = `retry-${unique()}`
    const body = JSON.stringify({ bidBalanceAdjustment: { delta: 10, reason: 'Компенсация' } })
    const patch = async (url: string) => {
      const response = await fetch(`${url}/api/admin/users/${person.id}`, {
        method: 'PATCH',
        headers: {
          'Content-Type': 'application/json',
          'Accept-Language': 'ru',
          Cookie: admin,
          'Idempotency-Key': key,
        },
        body,
      })
      return { status: response.status, json: (await response.json()) as Record<string, unknown> }
    }

    expect(await patch(waiting.url)).toEqual({
      status: 503,
      json: {
        error:
          'Изменение записано, но резервная копия его ещё не подтвердила. Отправьте его ещё раз: баланс не изменится дважды',
      },
    })
    const base = inject('baseUrl')
    expect(await patch(base)).toMatchObject({ status: 200, json: { bidBalance: 15 } })
    expect(await patch(base)).toMatchObject({ status: 200, json: { bidBalance: 15 } })
    const me = await call('/api/auth/me', { method: 'GET', cookie: person.cookie })
    expect((me.json.user as { bidBalance: number }).bidBalance).toBe(15)
    await expect
      .poll(() =>
        e2eDatabase().balanceLedger.count({
          where: { userId: person.id, reason: 'admin_adjust' },
        }),
      )
      .toBe(1)
  })
})
