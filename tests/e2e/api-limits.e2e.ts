import { withoutPageTexts } from './pages.ts'
import { describe, expect, test } from 'vitest'
import { base, call, newAccount, unique } from './api.ts'
import {
  createAuction,
  createFinishedAuction,
  e2eDatabase,
  reloadAuction,
  reloadUser,
} from './auctions.ts'

// The limits a bidder sets and the fair-play rules (docs/rules.md#limits-a-bidder-sets,
// docs/rules.md#fair-play-auctions) through the JSON calls and the profile's form without
// JavaScript, against the production server: each refusal a 403 in the person's language, the
// bid balance unchanged.

const upcoming = () => createAuction({ title: `Лимит ${unique()}`, startsInMs: 60 * 60 * 1000 })

const balanceOf = async (cookie: string) =>
  (
    (await call('/api/users/profile', { method: 'GET', cookie })).json.user as {
      bidBalance: number
    }
  ).bidBalance

const prebid = (id: string, cookie: string, lang = 'ru') =>
  call(`/api/auctions/${id}/prebid`, { cookie, lang })

describe('limits a bidder sets', () => {
  test('GET and PUT /api/users/limits need a session', async () => {
    expect((await call('/api/users/limits', { method: 'GET' })).status).toBe(401)
    const put = await call('/api/users/limits', { method: 'PUT', body: { dailyBidLimit: 3 } })
    expect(put.status).toBe(401)
    expect(put.json).toEqual({ error: 'Требуется вход в систему' })
  })

  test('a daily limit applies at once; a raise waits 24 hours; a break refuses every bid', async () => {
    const { cookie } = await newAccount()
    const limits = (body?: unknown) =>
      call('/api/users/limits', { method: body === undefined ? 'GET' : 'PUT', body, cookie })
    expect((await limits()).json).toEqual({
      dailyBidLimit: null,
      selfExcludedUntil: null,
      pending: null,
      bidsToday: 0,
    })
    expect((await limits({ dailyBidLimit: 1 })).json).toMatchObject({ dailyBidLimit: 1 })
    const [first, second] = await Promise.all([upcoming(), upcoming()])
    expect((await prebid(first.id, cookie)).status).toBe(200)
    const refused = await prebid(second.id, cookie, 'en')
    expect(refused.status).toBe(403)
    expect(refused.json).toEqual({
      error: 'You have reached your daily bid limit. New bids after midnight, Bishkek time',
    })
    expect(await balanceOf(cookie)).toBe(4)

    const raised = await limits({ dailyBidLimit: 10 })
    expect(raised.json).toMatchObject({ dailyBidLimit: 1, bidsToday: 1 })
    const { pending } = raised.json as { pending: { dailyBidLimit: number; appliesAt: string } }
    expect(pending.dailyBidLimit).toBe(10)
    const wait = Date.parse(pending.appliesAt) - Date.now()
    expect(wait).toBeGreaterThan(23.9 * 3_600_000)
    expect(wait).toBeLessThanOrEqual(24 * 3_600_000)
    expect((await prebid(second.id, cookie)).status).toBe(403)

    const excluded = await limits({ selfExcludeDays: 7 })
    expect(
      Date.parse((excluded.json as { selfExcludedUntil: string }).selfExcludedUntil),
    ).toBeGreaterThan(Date.now() + 6.9 * 24 * 3_600_000)
    const during = await prebid(second.id, cookie)
    expect(during.status).toBe(403)
    expect(during.json.error).toMatch(/перерыв/)
    expect(await balanceOf(cookie)).toBe(4)
  })

  test('bad limits answer 400 with the reason, and change nothing', async () => {
    const { cookie } = await newAccount()
    const put = (body: unknown, raw?: string) =>
      call('/api/users/limits', { method: 'PUT', body, raw, cookie, lang: 'en' })
    for (const body of [
      { dailyBidLimit: 0 },
      { dailyBidLimit: 1.5 },
      { dailyBidLimit: 'ten' },
      { dailyBidLimit: 10_001 },
      { selfExcludeDays: -1 },
      { selfExcludeDays: 184 },
      {},
      { dailyBidLimit: 5, other: 1 },
    ]) {
      const answer = await put(body)
      expect(answer.status, JSON.stringify(body)).toBe(400)
      expect(typeof answer.json.error, JSON.stringify(body)).toBe('string')
    }
    expect((await put(undefined, '{"dailyBidLimit":')).status).toBe(400)
    expect((await put({ dailyBidLimit: 0 })).json).toEqual({
      error: 'Enter a whole number of bids from 1 to 10,000, or leave it empty',
    })
    const after = await call('/api/users/limits', { method: 'GET', cookie })
    expect(after.json).toMatchObject({ dailyBidLimit: null, selfExcludedUntil: null })
  })

  test('the profile form without JavaScript: saved with a redirect, refused with the reason', async () => {
    const { cookie } = await newAccount()
    const post = (fields: Record<string, string>) =>
      fetch(`${base()}/profile`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          Cookie: cookie,
          'Content-Type': 'application/x-www-form-urlencoded',
          'Accept-Language': 'ru',
          Origin: base(),
        },
        body: new URLSearchParams({ intent: 'limits', ...fields }),
      })
    const bad = await post({ dailyBidLimit: 'много' })
    expect(bad.status).toBe(400)
    expect(withoutPageTexts(await bad.text())).toContain(
      'Введите целое число ставок от 1 до 10 000',
    )
    const saved = await post({ dailyBidLimit: '3' })
    expect(saved.status).toBe(302)
    const page = await fetch(`${base()}/profile`, { headers: { Cookie: cookie } })
    expect(withoutPageTexts(await page.text())).toContain('сегодня 0 из 3')
    const limits = await call('/api/users/limits', { method: 'GET', cookie })
    expect(limits.json).toMatchObject({ dailyBidLimit: 3 })
  })
})

describe('fair-play auctions', () => {
  test('a beginner auction refuses a prebid of someone who has won, with its message', async () => {
    const auction = await upcoming()
    const prisma = e2eDatabase()
    await prisma.auction.update({ where: { id: auction.id }, data: { beginnerOnly: true } })
    await reloadAuction(auction.id)
    const veteran = await newAccount()
    await createFinishedAuction({ title: 'Победа', winnerId: veteran.id, finalPrice: 1_00 })
    await prisma.user.update({ where: { id: veteran.id }, data: { wonAuctions: 1 } })
    await reloadUser(veteran.id)
    const refused = await prebid(auction.id, veteran.cookie)
    expect(refused.status).toBe(403)
    expect(refused.json).toEqual({
      error: 'Этот аукцион — для новичков: ставить могут только те, кто ещё ни разу не выигрывал',
    })
    expect(await balanceOf(veteran.cookie)).toBe(5)
    const beginner = await newAccount()
    expect((await prebid(auction.id, beginner.cookie)).status).toBe(200)
  })
})
