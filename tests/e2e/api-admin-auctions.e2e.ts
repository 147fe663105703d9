import { beforeAll, describe, expect, test } from 'vitest'
import { base, call, unique } from './api.ts'
import { adminAndUser, inAnHour } from './admin-api.ts'

// Runs alone: it reads the list of all auctions, which other files' auctions would change meanwhile.

// The admin's auction calls of docs/rules.md#calls: their shapes and their errors.

let admin = ''
let user = ''

beforeAll(async () => {
  ;({ admin, user } = await adminAndUser())
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

  test('a bid package holds the bids given, else what its retail price buys at 15 som a bid', async () => {
    const post = (body: Record<string, unknown>) =>
      call('/api/admin/auctions', {
        cookie: admin,
        body: { title: `Пакет ${unique()}`, startTime: inAnHour(), ...body },
      })
    // A client of the specification's call leaves it out: 1 000 som buys 66 bids (rounded down).
    const derived = await post({ retailPrice: 1000, isBidPackage: true })
    expect(derived).toMatchObject({ status: 201, json: { isBidPackage: true, packageBids: 66 } })
    const given = await post({ retailPrice: 1000, isBidPackage: true, packageBids: 50 })
    expect(given).toMatchObject({ status: 201, json: { packageBids: 50 } })
    const item = await post({ retailPrice: 1000 })
    expect(item).toMatchObject({ status: 201, json: { isBidPackage: false, packageBids: null } })
    const edit = { title: 'Пакет', retailPrice: 1500, startTime: inAnHour() }
    const put = (id: unknown, body: Record<string, unknown>) =>
      call(`/api/admin/auctions/${String(id)}`, { method: 'PUT', cookie: admin, body })
    expect(await put(given.json.id, edit)).toMatchObject({ json: { packageBids: 100 } })
    expect(await put(given.json.id, { ...edit, packageBids: 75 })).toMatchObject({
      json: { packageBids: 75 },
    })
    const wrong = 'Ставок в пакете — целое число от 1 до 10 000 000'
    for (const packageBids of [0, 2.5, 'много', 10_000_001])
      expect(await post({ retailPrice: 10, isBidPackage: true, packageBids })).toMatchObject({
        status: 400,
        json: { error: wrong },
      })
    const notPackage = 'Число ставок указывают только у пакета ставок'
    expect(await post({ retailPrice: 10, packageBids: 5 })).toMatchObject({
      status: 400,
      json: { error: notPackage },
    })
    expect(await put(item.json.id, { ...edit, packageBids: 5 })).toMatchObject({
      status: 400,
      json: { error: notPackage },
    })
  })
})
