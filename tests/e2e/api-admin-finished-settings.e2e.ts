import { beforeAll, describe, expect, test } from 'vitest'
import { base, call, unique } from './api.ts'
import { adminSession, inAnHour } from './admin-api.ts'
import { withoutPageTexts } from './pages.ts'

// Runs alone: it changes the site settings every other file's pages show, and reads the list of all
// finished auctions.

// The admin's calls for finished auctions and the site settings (docs/rules.md#calls).

let admin = ''

beforeAll(async () => {
  admin = await adminSession()
})

describe('admin API: finished auctions and settings', () => {
  test('finished auctions newest first with savings and stats; only finished ones delete here', async () => {
    const list = await call('/api/admin/finished-auctions', { method: 'GET', cookie: admin })
    expect(list.status).toBe(200)
    const auctions = list.json.auctions as Array<Record<string, number | string | null>>
    expect(auctions.length).toBeGreaterThan(0)
    const ends = auctions.map((a) => Date.parse(a.endTime as string))
    expect(ends).toEqual([...ends].sort((a, b) => b - a))
    for (const a of auctions) {
      expect(a.savings).toBeCloseTo((a.retailPrice as number) - (a.finalPrice as number), 2)
    }
    const first = auctions[0]!
    const stats = await call(`/api/admin/auction-stats/${first.id}`, {
      method: 'GET',
      cookie: admin,
    })
    expect(stats.status).toBe(200)
    expect(stats.json.totalBids).toBe(
      (stats.json.botBids as number) +
        (stats.json.userBids as number) +
        (stats.json.adminBids as number),
    )
    expect((stats.json.bids as unknown[]).length).toBe(stats.json.totalBids)
    expect(
      (await call('/api/admin/auction-stats/nope', { method: 'GET', cookie: admin })).status,
    ).toBe(404)

    const upcoming = await call('/api/admin/auctions', {
      cookie: admin,
      body: { title: `Не закончен ${unique()}`, retailPrice: 10, startTime: inAnHour() },
    })
    expect(
      await call(`/api/admin/finished-auctions/${upcoming.json.id}`, {
        method: 'DELETE',
        cookie: admin,
      }),
    ).toMatchObject({ status: 409, json: { error: 'Аукцион ещё не завершён' } })
    // Delete one of its own (the seeded ones are other tests' fixtures): start, end, delete.
    const mine = await call('/api/admin/auctions', {
      cookie: admin,
      body: {
        title: `Удалить ${unique()}`,
        retailPrice: 10,
        startTime: new Date(Date.now() + 500).toISOString(),
      },
    })
    const mineId = mine.json.id as string
    await expect
      .poll(
        async () => (await call(`/api/admin/auctions/${mineId}/end`, { cookie: admin })).status,
        {
          timeout: 10_000,
        },
      )
      .toBe(200)
    expect(
      (await call(`/api/admin/finished-auctions/${mineId}`, { method: 'DELETE', cookie: admin }))
        .status,
    ).toBe(200)
    expect((await call(`/api/auctions/${mineId}/stats`, { method: 'GET' })).status).toBe(404)
    expect(first.id).toBeTruthy()
  })

  test('settings: validated, saved, and public at once', async () => {
    const before = await call('/api/admin/settings', { method: 'GET', cookie: admin })
    const body = {
      ...before.json,
      siteName: 'Аукцион Тест',
      currency: 'тенге',
      currencySymbol: '₸',
    }
    const saved = await call('/api/admin/settings', { method: 'PUT', cookie: admin, body })
    expect(saved).toMatchObject({
      status: 200,
      json: { siteName: 'Аукцион Тест', currencySymbol: '₸' },
    })
    const pub = await call('/api/settings', { method: 'GET' })
    expect(pub.json).toMatchObject({ siteName: 'Аукцион Тест', currency: 'тенге' })
    for (const [change, error] of [
      [{ currency: 'биткоин' }, 'Выберите валюту из списка'],
      [{ siteName: '' }, 'Заполните все обязательные поля'],
      [{ language: 'de' }, 'Выберите язык из списка'],
      [{ contactEmail: 'нет' }, 'Неверный email'],
    ] as const) {
      const response = await call('/api/admin/settings', {
        method: 'PUT',
        cookie: admin,
        body: { ...body, ...change },
      })
      expect(response, JSON.stringify(change)).toMatchObject({ status: 400, json: { error } })
    }

    // The win limit (docs/rules.md#fair-play-auctions): 0 to 100, left out kept, told on the rules.
    expect(before.json.winLimit).toEqual(expect.any(Number))
    const limited = await call('/api/admin/settings', {
      method: 'PUT',
      cookie: admin,
      body: { ...body, winLimit: 3 },
    })
    expect(limited).toMatchObject({ status: 200, json: { winLimit: 3 } })
    const withoutLimit: Record<string, unknown> = { ...body }
    delete withoutLimit.winLimit
    expect(
      await call('/api/admin/settings', { method: 'PUT', cookie: admin, body: withoutLimit }),
    ).toMatchObject({ status: 200, json: { winLimit: 3 } })
    const rules = await fetch(`${base()}/auction-rules`, { headers: { 'Accept-Language': 'ru' } })
    expect(withoutPageTexts(await rules.text())).toContain('Сейчас лимит — 3 победы за 7 дней.')
    for (const winLimit of [-1, 101, 1.5, 'три', null]) {
      const response = await call('/api/admin/settings', {
        method: 'PUT',
        cookie: admin,
        body: { ...body, winLimit },
      })
      expect(response, String(winLimit)).toMatchObject({
        status: 400,
        json: { error: 'Лимит побед — целое число от 0 (без лимита) до 100' },
      })
    }
    await call('/api/admin/settings', { method: 'PUT', cookie: admin, body: before.json })
    expect(
      (await call('/api/admin/settings', { method: 'GET', cookie: admin })).json,
    ).toMatchObject({ winLimit: before.json.winLimit })
  })
})
