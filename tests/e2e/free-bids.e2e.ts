import { describe, expect, test } from 'vitest'
import { call, sessionOf, unique } from './api.ts'
import { e2eDatabase } from './auctions.ts'
import { postPage } from './pages.ts'
import { secondServer } from './second-server.ts'

// Free bids a registration could not give are given at the next sign-in, exactly once
// (docs/decisions/043-free-bids-owed.md), through the page's form and the API alike.

describe('free bids lost with the primary that held them', () => {
  const start = secondServer('lostgift')
  const password = 'secret12'

  /**
   * Registers on an instance whose writes wait for a replica that never answers (decision 037):
   * the free bids are on its primary only. That primary is then gone: its keys are a prefix of
   * their own that the site's Redis never sees, as after a failover to a replica without them.
   */
  async function registeredOnLostPrimary(url: string) {
    const username = unique()
    const response = await fetch(`${url}/api/auth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username, email: `${username}@mail.kg`, password }),
    })
    expect(response.status).toBe(201)
    const { user } = (await response.json()) as { user: { id: string } }
    return { username, id: user.id }
  }

  const apiSignIn = async (username: string) => {
    const answer = await call('/api/auth/login', { body: { username, password } })
    expect(answer.status).toBe(200)
    return sessionOf(answer.cookie)
  }
  const pageSignIn = async (username: string) => {
    const answer = await postPage('/login', { form: { intent: 'login', username, password } })
    expect(answer.status).toBe(302)
    return answer.cookies.map((line) => line.split(';')[0]!).join('; ')
  }
  const balanceOf = async (cookie: string) =>
    ((await call('/api/auth/me', { method: 'GET', cookie })).json.user as { bidBalance: number })
      .bidBalance
  /** The user's registration gifts in the ledger, once the outbox has written the first. */
  async function gifts(userId: string) {
    const read = () =>
      e2eDatabase().balanceLedger.count({ where: { userId, reason: 'registration_bonus' } })
    const deadline = Date.now() + 10_000
    while ((await read()) < 1 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    return read()
  }

  test('the API sign-in, the page sign-in and sign-ins at once give the 5 free bids once', async () => {
    const url = await start({ REDIS_WAIT_REPLICAS: '1', REDIS_WAIT_TIMEOUT_MS: '100' })
    const [byApi, byPage, atOnce] = [
      await registeredOnLostPrimary(url),
      await registeredOnLostPrimary(url),
      await registeredOnLostPrimary(url),
    ]

    const first = await apiSignIn(byApi.username)
    expect(await balanceOf(first)).toBe(5)
    expect(await balanceOf(await apiSignIn(byApi.username))).toBe(5)

    expect(await balanceOf(await pageSignIn(byPage.username))).toBe(5)
    expect(await balanceOf(await pageSignIn(byPage.username))).toBe(5)

    const cookies = await Promise.all([
      ...Array.from({ length: 4 }, () => apiSignIn(atOnce.username)),
      pageSignIn(atOnce.username),
      pageSignIn(atOnce.username),
    ])
    for (const cookie of cookies) expect(await balanceOf(cookie)).toBe(5)

    for (const { id } of [byApi, byPage, atOnce]) {
      expect(await gifts(id)).toBe(1)
      await expect
        .poll(
          async () => (await e2eDatabase().user.findUniqueOrThrow({ where: { id } })).bidBalance,
        )
        .toBe(5)
    }
  })
})
