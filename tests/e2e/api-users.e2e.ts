import { describe, expect, test } from 'vitest'
import { call, expectEachGet, newAccount, unique } from './api.ts'
import { e2eDatabase } from './auctions.ts'

// The user calls of docs/rules.md#calls and the bid-history lists, against the production server.

const profile = {
  firstName: 'Айгуль',
  lastName: 'Токтогулова',
  email: '',
  phone: '',
  dateOfBirth: '1990-05-17',
  gender: 'female',
}

describe('user API', () => {
  test('every call needs a session: 401 with a message', async () => {
    await expectEachGet(
      [
        '/api/users/profile',
        '/api/users/stats',
        '/api/users/won-auctions',
        '/api/users/recent-bids',
        '/api/bids/user',
        '/api/prebids/user',
      ],
      401,
      { error: 'Требуется вход в систему' },
    )
    const put = await call('/api/users/profile', { method: 'PUT', body: profile })
    expect(put.status).toBe(401)
  })

  test('a new account: profile, empty lists and zero statistics', async () => {
    const { name, cookie } = await newAccount()
    const me = await call('/api/users/profile', { method: 'GET', cookie })
    expect(me.status).toBe(200)
    expect(me.json.user).toMatchObject({ username: name, bidBalance: 5, firstName: null })
    expect((await call('/api/users/stats', { method: 'GET', cookie })).json).toEqual({
      activeBids: 0,
      activePrebids: 0,
      wonAuctions: 0,
      totalSpent: 0,
      finishedAuctions: 0,
      successRate: 0,
    })
    await expectEachGet(
      ['/api/users/won-auctions', '/api/users/recent-bids', '/api/bids/user', '/api/prebids/user'],
      200,
      [],
      cookie,
    )
  })

  test('PUT /api/users/profile saves with the shared rules and reports the first problem', async () => {
    const { name, cookie } = await newAccount()
    const body = { ...profile, email: `${name}@mail.kg`, phone: '+996700123456' }
    const saved = await call('/api/users/profile', { method: 'PUT', body, cookie })
    expect(saved.status).toBe(200)
    expect(saved.json.user).toMatchObject({
      firstName: 'Айгуль',
      lastName: 'Токтогулова',
      phone: '+996700123456',
      dateOfBirth: '1990-05-17',
      gender: 'female',
    })

    const bad: Array<[Record<string, unknown>, string, string]> = [
      [{ ...body, phone: '+996 700 123 456' }, 'ru', 'Введите номер в формате +996XXXXXXXXX'],
      [{ ...body, phone: '0700123456' }, 'en', 'Enter the number in the format +996XXXXXXXXX'],
      [{ ...body, email: 'nope' }, 'ru', 'Введите корректный email адрес'],
      [{ ...body, firstName: 'A' }, 'ru', 'Имя должно содержать минимум 2 символа'],
      [{ ...body, dateOfBirth: '2020-01-01' }, 'ru', 'Вам должно быть минимум 18 лет'],
      [{ ...body, gender: 'robot' }, 'ru', 'Выберите пол'],
      [{ ...body, firstName: 42 }, 'ru', 'Имя должно содержать минимум 2 символа'],
    ]
    for (const [payload, lang, message] of bad) {
      const response = await call('/api/users/profile', {
        method: 'PUT',
        body: payload,
        cookie,
        lang,
      })
      expect(response.status, JSON.stringify(payload)).toBe(400)
      expect(response.json, JSON.stringify(payload)).toEqual({ error: message })
    }
    for (const raw of ['{', '[]', '"x"', 'null']) {
      const response = await call('/api/users/profile', { method: 'PUT', raw, cookie })
      expect(response.status, raw).toBe(400)
      expect(typeof response.json.error).toBe('string')
    }
    // Nothing above changed the saved profile.
    const after = await call('/api/users/profile', { method: 'GET', cookie })
    expect(after.json.user).toMatchObject({ phone: '+996700123456', firstName: 'Айгуль' })
  })

  test("another account's email or phone is a 409", async () => {
    const first = await newAccount()
    const second = await newAccount()
    const phone = `+99655${String(Date.now()).slice(-7)}`
    const ok = await call('/api/users/profile', {
      method: 'PUT',
      body: { ...profile, email: `${first.name}@mail.kg`, phone },
      cookie: first.cookie,
    })
    expect(ok.status).toBe(200)
    const email = await call('/api/users/profile', {
      method: 'PUT',
      body: { ...profile, email: `${first.name}@mail.kg` },
      cookie: second.cookie,
    })
    expect(email).toMatchObject({ status: 409, json: { error: 'Этот email уже зарегистрирован' } })
    const taken = await call('/api/users/profile', {
      method: 'PUT',
      body: { ...profile, email: `${second.name}@mail.kg`, phone },
      cookie: second.cookie,
    })
    expect(taken).toMatchObject({ status: 409, json: { error: 'Этот номер уже используется' } })
  })

  test('won auctions carry wonAt and recent bids their auctionId', async () => {
    const person = await newAccount()
    const displayId = `U${Date.now().toString(36).toUpperCase()}`
    const endTime = new Date(Date.now() - 1_000)
    const won = await e2eDatabase().auction.create({
      data: {
        displayId,
        slug: `won-${displayId.toLowerCase()}`,
        title: `Выигрыш ${unique()}`,
        description: 'Лот для проверки.',
        retailPrice: 1_000_00,
        status: 'finished',
        startTime: new Date(Date.now() - 60_000),
        endTime,
        finalPrice: 3,
        winnerId: person.id,
      },
      select: { id: true },
    })
    await e2eDatabase().bid.create({
      data: { auctionId: won.id, userId: person.id, amount: 3 },
    })
    const wins = await call('/api/users/won-auctions', { method: 'GET', cookie: person.cookie })
    expect(wins.json).toEqual([
      expect.objectContaining({ id: won.id, wonAt: endTime.toISOString() }),
    ])
    const bids = await call('/api/users/recent-bids', { method: 'GET', cookie: person.cookie })
    const items = bids.json as unknown as Array<{ auctionId: string; auction: { id: string } }>
    expect(items.length).toBeGreaterThan(0)
    for (const item of items) expect(item.auctionId).toBe(item.auction.id)
    expect(items.map((item) => item.auctionId)).toContain(won.id)
  })

  test('other methods are 405', async () => {
    const { cookie } = await newAccount()
    expect((await call('/api/users/profile', { method: 'POST', body: {}, cookie })).status).toBe(
      405,
    )
    expect((await call('/api/users/stats', { method: 'POST', body: {}, cookie })).status).toBe(405)
  })
})
