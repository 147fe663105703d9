import { beforeAll, describe, expect, test } from 'vitest'
import { base, call, sessionOf, unique } from './api.ts'

// The /api/admin calls of docs/rules.md#calls: who may call them, their shapes, their errors.

let admin = ''
let user = ''

beforeAll(async () => {
  const login = await call('/api/auth/login', { body: { username: 'admin', password: 'admin123' } })
  expect(login.status).toBe(200)
  admin = sessionOf(login.cookie)
  const name = unique()
  const registered = await call('/api/auth/register', {
    body: { username: name, email: `${name}@mail.kg`, password: 'secret12' },
  })
  user = sessionOf(registered.cookie)
})

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString()

const routes: Array<[string, string, unknown?]> = [
  ['GET', '/api/admin/auctions'],
  [
    'POST',
    '/api/admin/auctions',
    { title: 'x', retailPrice: 1, startTime: '2030-01-01T00:00:00Z' },
  ],
  ['PUT', '/api/admin/auctions/some-id', {}],
  ['DELETE', '/api/admin/auctions/some-id'],
  ['POST', '/api/admin/auctions/some-id/end'],
  ['GET', '/api/admin/auctions/some-id/bots'],
  ['POST', '/api/admin/auctions/some-id/bots', { botId: 'b', bidLimit: 0 }],
  ['DELETE', '/api/admin/auctions/some-id/bots/some-bot'],
  ['GET', '/api/admin/bots'],
  ['POST', '/api/admin/bots', { firstName: 'Айбек', lastName: 'Асанов' }],
  ['DELETE', '/api/admin/bots/some-bot'],
  ['GET', '/api/admin/bots/auction-status'],
  ['GET', '/api/admin/bot-settings'],
  ['PUT', '/api/admin/bot-settings', { enabled: false }],
  ['GET', '/api/admin/users?page=1&limit=10&search=a'],
  ['GET', '/api/admin/users/today-registrations'],
  ['PATCH', '/api/admin/users/some-user', { bidBalance: 1000 }],
  ['DELETE', '/api/admin/users/some-user'],
  ['GET', '/api/admin/users/some-user/activity'],
  ['GET', '/api/admin/finished-auctions'],
  ['GET', '/api/admin/auction-stats/some-id'],
  ['DELETE', '/api/admin/finished-auctions/some-id'],
  ['GET', '/api/admin/settings'],
  ['PUT', '/api/admin/settings', { siteName: 'x' }],
]

describe('admin API: who gets through', () => {
  test.each(routes)('%s %s: anonymous 401, user 403', async (method, path, body) => {
    const anonymous = await call(path, { method, body })
    expect(anonymous.status).toBe(401)
    expect(anonymous.json).toEqual({ error: 'Требуется вход в систему' })
    const asUser = await call(path, { method, body, cookie: user })
    expect(asUser.status).toBe(403)
    expect(asUser.json).toEqual({ error: 'Доступ только для администраторов' })
  })
})

describe('admin API: auctions', () => {
  test('create, list, edit, end and delete', async () => {
    const title = `Лот ${unique()}`
    const created = await call('/api/admin/auctions', {
      cookie: admin,
      body: {
        title,
        description: 'Новый лот',
        retailPrice: 12_345.5,
        startTime: inAnHour(),
        isBidPackage: false,
        category: 'Электроника',
      },
    })
    expect(created.status).toBe(201)
    expect(created.json).toMatchObject({
      title,
      status: 'upcoming',
      retailPrice: 12_345.5,
      currentPrice: 0,
      category: 'Электроника',
    })
    expect(created.json.displayId).toMatch(/^PA-\d{6}$/)
    expect(created.json.slug).toBe(
      `${title.toLowerCase().replace(/\s+/g, '-')}-${(created.json.displayId as string).toLowerCase()}`,
    )
    const id = created.json.id as string

    const list = await call('/api/admin/auctions?page=1', { method: 'GET', cookie: admin })
    expect(list.status).toBe(200)
    expect(list.json).toMatchObject({ page: 1 })
    const statuses = (list.json.auctions as Array<{ status: string }>).map((a) => a.status)
    expect(statuses).not.toContain('finished')
    expect(statuses.indexOf('upcoming')).toBeGreaterThan(statuses.lastIndexOf('live'))

    const startSoon = new Date(Date.now() + 1500).toISOString()
    const edited = await call(`/api/admin/auctions/${id}`, {
      method: 'PUT',
      cookie: admin,
      body: { title: `${title} новый`, retailPrice: '999,99', startTime: startSoon },
    })
    expect(edited.status).toBe(200)
    expect(edited.json).toMatchObject({ title: `${title} новый`, retailPrice: 999.99 })
    // Old slugs still lead to the auction.
    const old = await fetch(
      `${base()}/auction/${encodeURIComponent(created.json.slug as string)}`,
      { redirect: 'manual' },
    )
    expect(old.status).toBe(301)

    // It starts by itself; then its start cannot move and it cannot be deleted while live.
    await expect
      .poll(
        async () =>
          (
            await call(`/api/auctions/slug/${encodeURIComponent(edited.json.slug as string)}`, {
              method: 'GET',
            })
          ).json.status,
        { timeout: 10_000 },
      )
      .toBe('live')
    const move = await call(`/api/admin/auctions/${id}`, {
      method: 'PUT',
      cookie: admin,
      body: { title, retailPrice: 1, startTime: inAnHour() },
    })
    expect(move).toMatchObject({
      status: 409,
      json: { error: 'Аукцион уже идёт: время начала изменить нельзя' },
    })
    expect(
      await call(`/api/admin/auctions/${id}`, { method: 'DELETE', cookie: admin }),
    ).toMatchObject({
      status: 409,
      json: { error: 'Аукцион идёт: сначала завершите его, потом удаляйте' },
    })

    const ended = await call(`/api/admin/auctions/${id}/end`, { cookie: admin })
    expect(ended.status).toBe(200)
    expect(ended.json.status).toBe('finished')
    expect(await call(`/api/admin/auctions/${id}/end`, { cookie: admin })).toMatchObject({
      status: 409,
      json: { error: 'Завершить можно только идущий аукцион' },
    })
    expect(
      (await call(`/api/admin/auctions/${id}`, { method: 'DELETE', cookie: admin })).status,
    ).toBe(200)
    expect((await call(`/api/auctions/${id}/stats`, { method: 'GET' })).status).toBe(404)
  }, 30_000)

  test('validation errors and unknown ids', async () => {
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ retailPrice: 10, startTime: inAnHour() }, 'Заполните все обязательные поля'],
      [{ title: 'Лот', startTime: inAnHour() }, 'Заполните все обязательные поля'],
      [{ title: 'Лот', retailPrice: 10 }, 'Заполните все обязательные поля'],
      [
        { title: 'Лот', retailPrice: 'abc', startTime: inAnHour() },
        'Введите сумму в сомах, не больше двух знаков после запятой',
      ],
      [
        { title: 'Лот', retailPrice: 1.234, startTime: inAnHour() },
        'Введите сумму в сомах, не больше двух знаков после запятой',
      ],
      [{ title: 'Лот', retailPrice: 10, startTime: 'завтра' }, 'Введите дату и время начала'],
      [{ title: 'Лот', retailPrice: 10, startTime: '2020-01-01T10:00' }, 'Время начала уже прошло'],
      [
        { title: 'Лот', retailPrice: 10, startTime: inAnHour(), imageUrl: 'javascript:alert(1)' },
        'Ссылка на изображение должна начинаться с http:// или https://',
      ],
    ]
    for (const [body, error] of bad) {
      const response = await call('/api/admin/auctions', { cookie: admin, body })
      expect(response, JSON.stringify(body)).toMatchObject({ status: 400, json: { error } })
    }
    expect((await call('/api/admin/auctions', { cookie: admin, raw: '{oops' })).status).toBe(400)
    const valid = { title: 'Лот', retailPrice: 10, startTime: inAnHour() }
    for (const [method, path] of [
      ['PUT', '/api/admin/auctions/nope'],
      ['DELETE', '/api/admin/auctions/nope'],
      ['POST', '/api/admin/auctions/nope/end'],
      ['GET', '/api/admin/auctions/nope/bots'],
    ] as const) {
      const response = await call(path, {
        method,
        cookie: admin,
        body: method === 'PUT' ? valid : undefined,
      })
      expect(response, path).toMatchObject({ status: 404, json: { error: 'Аукцион не найден' } })
    }
  })

  test('deleting an upcoming auction gives prebids back', async () => {
    const created = await call('/api/admin/auctions', {
      cookie: admin,
      body: { title: `Возврат ${unique()}`, retailPrice: 100, startTime: inAnHour() },
    })
    const id = created.json.id as string
    expect((await call(`/api/auctions/${id}/prebid`, { cookie: user })).json).toMatchObject({
      bidBalance: 4,
    })
    expect(
      await call(`/api/admin/auctions/${id}`, { method: 'DELETE', cookie: admin }),
    ).toMatchObject({
      status: 200,
      json: { refunded: 1 },
    })
    const me = await call('/api/auth/me', { method: 'GET', cookie: user })
    expect((me.json.user as { bidBalance: number }).bidBalance).toBe(5)
  })
})

describe('admin API: bots', () => {
  test('settings: one field at a time, within their ranges', async () => {
    const before = await call('/api/admin/bot-settings', { method: 'GET', cookie: admin })
    expect(Object.keys(before.json).sort()).toEqual([
      'activeBots',
      'enabled',
      'maxDelay',
      'minDelay',
    ])
    const saved = await call('/api/admin/bot-settings', {
      method: 'PUT',
      cookie: admin,
      body: { maxDelay: 9 },
    })
    expect(saved).toMatchObject({ status: 200, json: { maxDelay: 9 } })
    for (const [body, error] of [
      [{ minDelay: 0 }, 'Задержка — целое число секунд от 1 до 10'],
      [{ maxDelay: 11 }, 'Задержка — целое число секунд от 1 до 10'],
      [{ activeBots: 6 }, 'Активных ботов — от 0 до 5'],
      [{ minDelay: 10, maxDelay: 2 }, 'Минимальная задержка не может быть больше максимальной'],
      [{ speed: 1 }, 'Ошибка валидации'],
    ] as const) {
      const response = await call('/api/admin/bot-settings', { method: 'PUT', cookie: admin, body })
      expect(response, JSON.stringify(body)).toMatchObject({ status: 400, json: { error } })
    }
    await call('/api/admin/bot-settings', {
      method: 'PUT',
      cookie: admin,
      body: { maxDelay: before.json.maxDelay },
    })
  })

  test('create with a made-up username, assign once, list, unassign, delete', async () => {
    const bot = await call('/api/admin/bots', {
      cookie: admin,
      body: { firstName: 'Эрмек', lastName: 'Бакиров' },
    })
    expect(bot.status).toBe(201)
    expect(bot.json.username).toMatch(/^ermekb\d{2,3}$/)
    expect(bot.json.isActive).toBe(true)
    expect(
      await call('/api/admin/bots', { cookie: admin, body: { firstName: 'Эрмек' } }),
    ).toMatchObject({
      status: 400,
      json: { error: 'Заполните имя и фамилию бота' },
    })
    const list = await call('/api/admin/bots?page=1', { method: 'GET', cookie: admin })
    expect((list.json.bots as unknown[]).length).toBeLessThanOrEqual(5)
    expect(list.json.totalPages).toBe(Math.max(1, Math.ceil((list.json.total as number) / 5)))

    const auction = await call('/api/admin/auctions', {
      cookie: admin,
      body: { title: `Боты ${unique()}`, retailPrice: 100, startTime: inAnHour() },
    })
    const id = auction.json.id as string
    const botId = bot.json.id as string
    expect(
      (
        await call(`/api/admin/auctions/${id}/bots`, {
          cookie: admin,
          body: { botId, bidLimit: 3 },
        })
      ).status,
    ).toBe(201)
    expect(
      await call(`/api/admin/auctions/${id}/bots`, { cookie: admin, body: { botId, bidLimit: 3 } }),
    ).toMatchObject({
      status: 409,
      json: { error: 'Этот бот уже добавлен к аукциону' },
    })
    expect(
      await call(`/api/admin/auctions/${id}/bots`, {
        cookie: admin,
        body: { botId, bidLimit: -1 },
      }),
    ).toMatchObject({
      status: 400,
      json: { error: 'Лимит ставок — целое число от 0 (без лимита)' },
    })
    const assigned = await call(`/api/admin/auctions/${id}/bots`, { method: 'GET', cookie: admin })
    expect(assigned.json).toMatchObject([{ botId, bidLimit: 3, currentBids: 0 }])
    const status = await call('/api/admin/bots/auction-status', { method: 'GET', cookie: admin })
    expect(status.json[botId]).toEqual([
      { auctionId: id, auctionTitle: auction.json.title, currentBids: 0, bidLimit: 3 },
    ])
    expect(
      (await call(`/api/admin/auctions/${id}/bots/${botId}`, { method: 'DELETE', cookie: admin }))
        .status,
    ).toBe(200)
    expect(
      (await call(`/api/admin/auctions/${id}/bots/${botId}`, { method: 'DELETE', cookie: admin }))
        .status,
    ).toBe(404)
    expect(
      (await call(`/api/admin/bots/${botId}`, { method: 'DELETE', cookie: admin })).status,
    ).toBe(200)
    expect(
      await call(`/api/admin/bots/${botId}`, { method: 'DELETE', cookie: admin }),
    ).toMatchObject({
      status: 404,
      json: { error: 'Бот не найден' },
    })
  })
})

describe('admin API: users', () => {
  test('search, page, edit (balance through the ledger), activity, delete', async () => {
    const name = unique()
    const registered = await call('/api/auth/register', {
      body: { username: name, email: `${name}@mail.kg`, password: 'secret12' },
    })
    const cookie = sessionOf(registered.cookie)
    const id = (registered.json.user as { id: string }).id

    const found = await call(`/api/admin/users?search=${name}`, { method: 'GET', cookie: admin })
    expect(found.json).toMatchObject({ total: 1, page: 1, totalPages: 1 })
    expect((found.json.users as unknown[])[0]).toMatchObject({
      id,
      username: name,
      bidBalance: 5,
      ipAddress: '127.0.0.1',
      role: 'user',
    })
    const paged = await call('/api/admin/users?page=1&limit=2', { method: 'GET', cookie: admin })
    expect((paged.json.users as unknown[]).length).toBe(2)
    const today = await call('/api/admin/users/today-registrations', {
      method: 'GET',
      cookie: admin,
    })
    expect(today.json.count).toBeGreaterThanOrEqual(2)

    const edited = await call(`/api/admin/users/${id}`, {
      method: 'PATCH',
      cookie: admin,
      body: { bidBalance: 250, firstName: 'Азамат', phone: '+996555000111' },
    })
    expect(edited).toMatchObject({
      status: 200,
      json: { bidBalance: 250, firstName: 'Азамат', phone: '+996555000111' },
    })
    // The person sees the new balance at once.
    const me = await call('/api/auth/me', { method: 'GET', cookie })
    expect((me.json.user as { bidBalance: number }).bidBalance).toBe(250)

    for (const [body, status, error] of [
      [{ bidBalance: -1 }, 400, 'Баланс ставок — целое число от 0'],
      [{ bidBalance: 1.5 }, 400, 'Баланс ставок — целое число от 0'],
      [{ role: 'king' }, 400, 'Роль: пользователь или администратор'],
      [{ phone: '555' }, 400, 'Введите номер в формате +996XXXXXXXXX'],
      [{ email: 'admin@nowhere' }, 400, 'Введите корректный email адрес'],
      [{ username: 'admin' }, 409, 'Это имя пользователя уже занято'],
      [{ password: 'x' }, 400, 'Ошибка валидации'],
    ] as const) {
      const response = await call(`/api/admin/users/${id}`, {
        method: 'PATCH',
        cookie: admin,
        body,
      })
      expect(response, JSON.stringify(body)).toMatchObject({ status, json: { error } })
    }
    expect(
      await call('/api/admin/users/nobody', {
        method: 'PATCH',
        cookie: admin,
        body: { bidBalance: 1 },
      }),
    ).toMatchObject({ status: 404, json: { error: 'Пользователь не найден' } })

    const activity = await call(`/api/admin/users/${id}/activity`, { method: 'GET', cookie: admin })
    expect(activity.json).toEqual({ wonAuctions: [], activeBids: [], prebids: [] })

    expect((await call(`/api/admin/users/${id}`, { method: 'DELETE', cookie: admin })).status).toBe(
      200,
    )
    expect((await call('/api/auth/me', { method: 'GET', cookie })).status).toBe(401)
    expect((await call(`/api/admin/users/${id}`, { method: 'DELETE', cookie: admin })).status).toBe(
      404,
    )
  })

  test('an admin can neither delete nor demote themself', async () => {
    const me = await call('/api/auth/me', { method: 'GET', cookie: admin })
    const id = (me.json.user as { id: string }).id
    expect(await call(`/api/admin/users/${id}`, { method: 'DELETE', cookie: admin })).toMatchObject(
      {
        status: 409,
        json: { error: 'Нельзя удалить самого себя' },
      },
    )
    expect(
      await call(`/api/admin/users/${id}`, {
        method: 'PATCH',
        cookie: admin,
        body: { role: 'user' },
      }),
    ).toMatchObject({
      status: 409,
      json: { error: 'Нельзя снять роль администратора с самого себя' },
    })
  })
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
    await call('/api/admin/settings', { method: 'PUT', cookie: admin, body: before.json })
  })
})
