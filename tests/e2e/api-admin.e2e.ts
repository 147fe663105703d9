import { beforeAll, describe, expect, test } from 'vitest'
import { base, call, newAccount, sessionOf, unique } from './api.ts'
import { createAuction, createOrder, e2eDatabase, outboxWritten } from './auctions.ts'
import { getPage, postPage, type Language } from './pages.ts'
import { buyPackage, webhook } from './payments.ts'

// Runs alone: it changes the bot settings and the site settings every other file's pages show, and
// reads lists of all auctions and users.

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
  ['PATCH', '/api/admin/users/some-user', { bidBalanceAdjustment: { delta: 1000, reason: 'x' } }],
  ['DELETE', '/api/admin/users/some-user'],
  ['GET', '/api/admin/users/some-user/activity'],
  ['GET', '/api/admin/finished-auctions'],
  ['GET', '/api/admin/auction-stats/some-id'],
  ['DELETE', '/api/admin/finished-auctions/some-id'],
  ['GET', '/api/admin/settings'],
  ['PUT', '/api/admin/settings', { siteName: 'x' }],
  ['GET', '/api/admin/orders?status=paid'],
  ['GET', '/api/admin/payments?status=paid&page=1'],
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
  test('search, page, edit (a balance adjustment), activity, delete', async () => {
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
      body: {
        bidBalanceAdjustment: { delta: 245, reason: 'Подарок' },
        firstName: 'Азамат',
        phone: '+996555000111',
      },
    })
    expect(edited).toMatchObject({
      status: 200,
      json: { bidBalance: 250, firstName: 'Азамат', phone: '+996555000111' },
    })
    // The person sees the new balance at once.
    const me = await call('/api/auth/me', { method: 'GET', cookie })
    expect((me.json.user as { bidBalance: number }).bidBalance).toBe(250)

    for (const [body, status, error] of [
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
        body: { bidBalanceAdjustment: { delta: 1, reason: 'Подарок' } },
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

describe('admin API: bid balance adjustments', () => {
  /** The admin's PATCH: its status and body. */
  const patch = async (id: string, body: unknown, lang?: string) => {
    const { status, json } = await call(`/api/admin/users/${id}`, {
      method: 'PATCH',
      cookie: admin,
      body,
      lang,
    })
    return { status, json }
  }
  const balanceOf = async (cookie: string) =>
    ((await call('/api/auth/me', { method: 'GET', cookie })).json.user as { bidBalance: number })
      .bidBalance
  /** The user's ledger rows made by admins, once the outbox has written `count` of them. */
  async function adminLedger(userId: string, count: number) {
    const read = () =>
      e2eDatabase().balanceLedger.findMany({
        where: { userId, reason: { in: ['admin_adjust', 'admin_set'] } },
        orderBy: { createdAt: 'asc' },
        select: { amount: true, balanceAfter: true, reason: true, adminId: true, note: true },
      })
    const deadline = Date.now() + 10_000
    while ((await read()).length < count && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    // A wrong extra row would be written by now too.
    await outboxWritten()
    return read()
  }
  let adminId = ''
  beforeAll(async () => {
    adminId = (
      (await call('/api/auth/me', { method: 'GET', cookie: admin })).json.user as {
        id: string
      }
    ).id
  })

  test('bids bought and spent between the admin reading the balance and saving stay', async () => {
    const person = await newAccount()
    // The admin reads the balance: 5, the registration gift.
    const read = await call(`/api/admin/users?search=${person.name}`, {
      method: 'GET',
      cookie: admin,
    })
    expect((read.json.users as Array<{ bidBalance: number }>)[0]!.bidBalance).toBe(5)

    // Meanwhile the person buys 50 bids and spends one on a prebid: 54.
    const paymentId = await buyPackage(person.cookie)
    expect((await webhook({ payment_id: paymentId })).status).toBe(200)
    const auction = await createAuction({ title: `Баланс ${unique()}`, startsInMs: 3_600_000 })
    expect(
      (await call(`/api/auctions/${auction.id}/prebid`, { cookie: person.cookie })).json,
    ).toMatchObject({ bidBalance: 54 })

    // A value guarded by the old read would undo both: refused, nothing changed.
    expect(
      await patch(person.id, {
        bidBalance: 15,
        expectedBidBalance: 5,
        bidBalanceReason: 'Компенсация',
      }),
    ).toMatchObject({
      status: 409,
      json: {
        error:
          'Баланс изменился с тех пор, как вы его видели; ничего не сохранено. Прочитайте баланс заново или отправьте изменение bidBalanceAdjustment',
      },
    })
    expect(await balanceOf(person.cookie)).toBe(54)

    // An adjustment adds to the balance as it is now.
    expect(
      await patch(person.id, { bidBalanceAdjustment: { delta: 10, reason: 'Компенсация' } }),
    ).toMatchObject({ status: 200, json: { id: person.id, bidBalance: 64 } })
    expect(await balanceOf(person.cookie)).toBe(64)
    // A value with the balance the caller saw is a compare-and-set.
    expect(
      await patch(person.id, {
        bidBalance: 60,
        expectedBidBalance: 64,
        bidBalanceReason: '  Исправление  ',
      }),
    ).toMatchObject({ status: 200, json: { bidBalance: 60 } })
    expect(await balanceOf(person.cookie)).toBe(60)
    // A plain value (the specification's call) sets the balance; the ledger keeps its difference
    // from the balance at that moment, with the admin as its author.
    expect(await patch(person.id, { bidBalance: 15 })).toMatchObject({
      status: 200,
      json: { bidBalance: 15 },
    })
    expect(await balanceOf(person.cookie)).toBe(15)

    expect(await adminLedger(person.id, 3)).toEqual([
      { amount: 10, balanceAfter: 64, reason: 'admin_adjust', adminId, note: 'Компенсация' },
      { amount: -4, balanceAfter: 60, reason: 'admin_adjust', adminId, note: 'Исправление' },
      { amount: -45, balanceAfter: 15, reason: 'admin_adjust', adminId, note: null },
    ])
    const row = await e2eDatabase().user.findUniqueOrThrow({ where: { id: person.id } })
    expect(row.bidBalance).toBe(15)
  })

  test('a change sent again with its Idempotency-Key is applied once, also when sent at once', async () => {
    const person = await newAccount()
    const send = (body: unknown, key: string) =>
      call(`/api/admin/users/${person.id}`, {
        method: 'PATCH',
        cookie: admin,
        body,
        headers: { 'Idempotency-Key': key },
      })
    const gift = { bidBalanceAdjustment: { delta: 7, reason: 'Подарок' } }
    const giftKey = `gift-${unique()}`
    const answers = await Promise.all([
      send(gift, giftKey),
      send(gift, giftKey),
      send(gift, giftKey),
    ])
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200])
    expect(await send(gift, giftKey)).toMatchObject({ status: 200, json: { bidBalance: 12 } })
    expect(await balanceOf(person.cookie)).toBe(12)
    // A set, repeated after the balance moved, does not set it again.
    const set = { bidBalance: 30 }
    const setKey = `set-${unique()}`
    expect(await send(set, setKey)).toMatchObject({ status: 200, json: { bidBalance: 30 } })
    const auction = await createAuction({ title: `Ключ ${unique()}`, startsInMs: 3_600_000 })
    expect(
      (await call(`/api/auctions/${auction.id}/prebid`, { cookie: person.cookie })).json,
    ).toMatchObject({ bidBalance: 29 })
    expect(await send(set, setKey)).toMatchObject({ status: 200, json: { bidBalance: 29 } })
    // Another key is another change.
    expect(await send(gift, `gift-${unique()}`)).toMatchObject({ json: { bidBalance: 36 } })
    expect(await adminLedger(person.id, 3)).toEqual([
      { amount: 7, balanceAfter: 12, reason: 'admin_adjust', adminId, note: 'Подарок' },
      { amount: 18, balanceAfter: 30, reason: 'admin_adjust', adminId, note: null },
      { amount: 7, balanceAfter: 36, reason: 'admin_adjust', adminId, note: 'Подарок' },
    ])
    for (const key of ['a b', 'x'.repeat(101)]) {
      expect(await send(gift, key), key).toEqual(
        expect.objectContaining({
          status: 400,
          json: { error: 'Idempotency-Key: от 1 до 100 видимых символов ASCII, без пробелов' },
        }),
      )
    }
    expect(await balanceOf(person.cookie)).toBe(36)
  })

  test('the page form: the same rendered form sent twice changes the balance once', async () => {
    const person = await newAccount()
    const keyOf = async () => {
      const page = await getPage(`/admin/users/${person.id}/edit`, admin, 'ru')
      expect(page.status).toBe(200)
      return /name="idempotencyKey" value="([^"]+)"/.exec(page.text)?.[1]
    }
    const key = await keyOf()
    expect(key).toMatch(/^[\x21-\x7e]{1,100}$/)
    const form = {
      intent: 'edit',
      id: person.id,
      idempotencyKey: key!,
      username: person.name,
      email: `${person.name}@mail.kg`,
      firstName: '',
      lastName: '',
      phone: '',
      role: 'user',
      bidBalanceDelta: '+3',
      bidBalanceReason: 'Подарок',
    }
    // A double click, or the browser sending the form again.
    const answers = await Promise.all(
      [1, 2].map(() => postPage(`/admin/users/${person.id}/edit`, { form }, { cookie: admin })),
    )
    expect(answers.map((answer) => answer.status)).toEqual([302, 302])
    expect(
      await postPage(`/admin/users/${person.id}/edit`, { form }, { cookie: admin }),
    ).toMatchObject({
      status: 302,
    })
    expect(await balanceOf(person.cookie)).toBe(8)
    expect(await adminLedger(person.id, 1)).toEqual([
      { amount: 3, balanceAfter: 8, reason: 'admin_adjust', adminId, note: 'Подарок' },
    ])
    // The form rendered anew is a new change.
    const next = await keyOf()
    expect(next).not.toBe(key)
    expect(
      await postPage(
        `/admin/users/${person.id}/edit`,
        { form: { ...form, idempotencyKey: next! } },
        { cookie: admin },
      ),
    ).toMatchObject({ status: 302 })
    expect(await balanceOf(person.cookie)).toBe(11)
  })

  test('a debit below 0 or a credit above the maximum is refused with 409; nothing changes', async () => {
    const person = await newAccount()
    expect(
      await patch(person.id, {
        firstName: 'Изменено',
        bidBalanceAdjustment: { delta: -6, reason: 'Списание' },
      }),
    ).toEqual({
      status: 409,
      json: {
        error:
          'Нельзя списать больше ставок, чем есть на балансе: он не может стать меньше 0. Ничего не сохранено',
      },
    })
    expect(
      await patch(person.id, { bidBalanceAdjustment: { delta: -6, reason: 'Debit' } }, 'en'),
    ).toMatchObject({
      status: 409,
      json: {
        error:
          'You cannot take away more bids than the balance holds: it cannot go below 0. Nothing was saved',
      },
    })
    expect(
      await patch(person.id, { bidBalanceAdjustment: { delta: 10_000_000, reason: 'Много' } }),
    ).toMatchObject({
      status: 409,
      json: { error: 'Баланс не может стать больше 10 000 000 ставок. Ничего не сохранено' },
    })
    expect(await balanceOf(person.cookie)).toBe(5)
    // Postgres holds the registration's 5 free bids once the outbox has written them.
    const row = () => e2eDatabase().user.findUniqueOrThrow({ where: { id: person.id } })
    await expect.poll(async () => (await row()).bidBalance, { timeout: 10_000 }).toBe(5)
    expect(await row()).toMatchObject({ firstName: null, bidBalance: 5 })

    // Down to 0 exactly is allowed.
    expect(
      await patch(person.id, { bidBalanceAdjustment: { delta: -5, reason: 'Списание' } }),
    ).toMatchObject({ status: 200, json: { bidBalance: 0 } })
    expect(await adminLedger(person.id, 1)).toEqual([
      { amount: -5, balanceAfter: 0, reason: 'admin_adjust', adminId, note: 'Списание' },
    ])
  })

  test('bad input answers 400 with its error, never 500', async () => {
    const person = await newAccount()
    const delta =
      'Изменение баланса — целое число ставок со знаком + или −, не 0 и по модулю не больше 10 000 000'
    const reason = 'Укажите причину изменения баланса'
    const adjust = (value: unknown) => ({ bidBalanceAdjustment: value })
    for (const [body, error] of [
      [adjust({ delta: 1.5, reason: 'x' }), delta],
      [adjust({ delta: 0, reason: 'x' }), delta],
      [adjust({ delta: '5 бонус', reason: 'x' }), delta],
      [adjust({ delta: null, reason: 'x' }), delta],
      [adjust({ reason: 'x' }), delta],
      [adjust({ delta: 10_000_001, reason: 'x' }), delta],
      [adjust({ delta: -1e21, reason: 'x' }), delta],
      [adjust({ delta: 1e300, reason: 'x' }), delta],
      [adjust({ delta: 5 }), reason],
      [adjust({ delta: 5, reason: '   ' }), reason],
      [adjust({ delta: 5, reason: 'x'.repeat(201) }), 'Слишком длинное значение'],
      [adjust({ delta: 5, reason: 42 }), 'Ошибка валидации'],
      [adjust({ delta: 5, reason: 'x', admin: 'someone' }), 'Ошибка валидации'],
      [adjust(5), 'Ошибка валидации'],
      [
        { bidBalance: 10, bidBalanceAdjustment: { delta: 5, reason: 'x' } },
        'Отправьте либо изменение баланса, либо новый баланс, но не оба сразу',
      ],
      [{ bidBalance: 10, expectedBidBalance: 5 }, reason],
      [{ expectedBidBalance: 5 }, 'Ошибка валидации'],
      [
        { bidBalance: 1e300, expectedBidBalance: 5, bidBalanceReason: 'x' },
        'Баланс ставок — целое число от 0',
      ],
      [
        { bidBalance: 10, expectedBidBalance: -1, bidBalanceReason: 'x' },
        'Баланс ставок — целое число от 0',
      ],
    ] as const) {
      expect(await patch(person.id, body), JSON.stringify(body)).toEqual({
        status: 400,
        json: { error },
      })
    }
    // A number JSON can write but not hold: Infinity once parsed.
    const infinite = await call(`/api/admin/users/${person.id}`, {
      method: 'PATCH',
      cookie: admin,
      raw: '{"bidBalanceAdjustment": {"delta": 1e999, "reason": "x"}}',
    })
    expect(infinite).toMatchObject({ status: 400, json: { error: delta } })
    expect(await balanceOf(person.cookie)).toBe(5)
    expect(await adminLedger(person.id, 0)).toEqual([])
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

describe('admin API: deletes keep money (docs/decisions/029-nothing-paid-disappears.md)', () => {
  /** An auction of the test's own that has started and been ended by the admin. */
  async function finishedAuction(title: string) {
    const auction = await createAuction({ title, startsInMs: 300 })
    await expect
      .poll(
        async () => (await call(`/api/admin/auctions/${auction.id}/end`, { cookie: admin })).status,
        { timeout: 10_000 },
      )
      .toBe(200)
    return auction
  }

  test('an auction or an account with a paid order is refused with 409; an unpaid order goes', async () => {
    const prisma = e2eDatabase()
    const buyer = await newAccount()
    const paidLot = await finishedAuction(`Оплачен ${unique()}`)
    const order = await createOrder(buyer.id, paidLot.id)
    const paid = await call(`/api/admin/orders/${order.id}`, {
      method: 'PATCH',
      cookie: admin,
      body: { status: 'paid' },
    })
    expect(paid.status).toBe(200)

    for (const path of [
      `/api/admin/finished-auctions/${paidLot.id}`,
      `/api/admin/auctions/${paidLot.id}`,
    ]) {
      expect(await call(path, { method: 'DELETE', cookie: admin })).toMatchObject({
        status: 409,
        json: {
          error:
            'У этого аукциона есть оплаченные заказы или платежи: удалить его нельзя, чтобы деньги и товар не потерялись',
        },
      })
    }
    expect(
      await call(`/api/admin/users/${buyer.id}`, { method: 'DELETE', cookie: admin }),
    ).toMatchObject({
      status: 409,
      json: {
        error:
          'У этого пользователя есть оплаченные заказы или платёж в обработке: удалить его нельзя, чтобы деньги и товар не потерялись',
      },
    })
    expect(await prisma.order.findUnique({ where: { id: order.id } })).toMatchObject({
      status: 'paid',
      userId: buyer.id,
      auctionId: paidLot.id,
    })
    expect(await prisma.user.count({ where: { id: buyer.id } })).toBe(1)
    // The account still signs in: nothing of it was ended.
    expect((await call('/api/auth/me', { method: 'GET', cookie: buyer.cookie })).status).toBe(200)

    // The database itself refuses to cascade a paid order away.
    await expect(prisma.auction.delete({ where: { id: paidLot.id } })).rejects.toThrow()
    await expect(prisma.user.delete({ where: { id: buyer.id } })).rejects.toThrow()

    // An order nobody paid holds no money: it goes with its auction.
    const unpaidLot = await finishedAuction(`Не оплачен ${unique()}`)
    const unpaid = await createOrder(buyer.id, unpaidLot.id)
    expect(
      (
        await call(`/api/admin/finished-auctions/${unpaidLot.id}`, {
          method: 'DELETE',
          cookie: admin,
        })
      ).status,
    ).toBe(200)
    expect(await prisma.order.count({ where: { id: unpaid.id } })).toBe(0)
  })

  test('a deleted account leaves the engine at once: its prebid and auto-bidder place no bid', async () => {
    const gone = await newAccount()
    const stays = await newAccount()
    // It starts only once everything below is in place, however slow the machine.
    const title = `Удалённый ${unique()}`
    const auction = await createAuction({ title, startsInMs: 60 * 60 * 1000 })
    expect((await call(`/api/auctions/${auction.id}/prebid`, { cookie: gone.cookie })).status).toBe(
      200,
    )
    expect(
      (await call(`/api/auctions/${auction.id}/prebid`, { cookie: stays.cookie })).status,
    ).toBe(200)
    const autobid = await call(`/api/auctions/${auction.id}/autobid`, {
      cookie: gone.cookie,
      body: { bids: 3 },
    })
    expect(autobid.status).toBe(200)
    expect(
      await call(`/api/admin/users/${gone.id}`, { method: 'DELETE', cookie: admin }),
    ).toMatchObject({ status: 200, json: { ok: true } })

    const read = async () =>
      (await call(`/api/auctions/slug/${encodeURIComponent(auction.slug)}`, { method: 'GET' }))
        .json as { status: string; totalBids: number; prebidsCount: number }
    expect((await read()).prebidsCount).toBe(1)
    const moved = await call(`/api/admin/auctions/${auction.id}`, {
      method: 'PUT',
      cookie: admin,
      body: { title, retailPrice: 1, startTime: new Date(Date.now() + 1_000).toISOString() },
    })
    expect(moved.status).toBe(200)
    await expect.poll(async () => (await read()).status, { timeout: 10_000 }).toBe('live')
    // Only the remaining prebid became a bid; the deleted account's auto-bidder stays silent
    // through the last seconds of the timer, and the remaining prebidder wins.
    expect(await read()).toMatchObject({ totalBids: 1, prebidsCount: 1 })
    await expect.poll(async () => (await read()).status, { timeout: 20_000 }).toBe('finished')
    // Postgres learns of the finish from the outbox, a moment after Redis.
    const row = () => e2eDatabase().auction.findUniqueOrThrow({ where: { id: auction.id } })
    await expect.poll(async () => (await row()).status, { timeout: 10_000 }).toBe('finished')
    expect(await row()).toMatchObject({ winnerId: stays.id, totalBids: 1 })
  })
})

describe('admin payments: /api/admin/payments and /admin/payments (docs/payments.md)', () => {
  const statuses = ['pending', 'paid', 'held', 'refunded', 'failed', 'cancelled'] as const
  type Status = (typeof statuses)[number]
  type Row = {
    id: string
    status: Status
    amount: number
    currency: string
    purpose: string
    bids: number
    provider: string
    createdAt: string
    user: { id: string; username: string } | null
  }
  let buyer: Awaited<ReturnType<typeof newAccount>>
  /** One payment of this test's buyer in each status, a second apart, newest last. */
  const mine = new Map<Status, string>()

  beforeAll(async () => {
    buyer = await newAccount()
    const start = Date.now() - statuses.length * 1000
    for (const [i, status] of statuses.entries()) {
      const row = await e2eDatabase().payment.create({
        data: {
          userId: buyer.id,
          provider: 'sandbox',
          purpose: 'package',
          packageId: 'bids-50',
          bids: 50,
          amount: 750_00,
          status,
          createdAt: new Date(start + i * 1000),
        },
        select: { id: true },
      })
      mine.set(status, row.id)
    }
  })

  /** The whole `<a …>label</a>` of the page's link to `href`, whatever the order of its attributes. */
  const filterLink = (html: string, href: string) =>
    (html.match(/<a [^>]*>[^<]*<\/a>/g) ?? []).find((tag) =>
      tag.includes(` href="${href.replace(/&/g, '&amp;')}"`),
    ) ?? ''

  const list = (query: string, lang = 'ru') =>
    call(`/api/admin/payments${query}`, { method: 'GET', cookie: admin, lang })
  const rows = (json: Record<string, unknown>) => json.payments as Row[]

  test('each status filters to its own payments, newest first, money in som', async () => {
    for (const status of statuses) {
      const answer = await list(`?status=${status}`)
      expect(answer.status, status).toBe(200)
      expect(answer.json).toMatchObject({ status, page: 1 })
      const payments = rows(answer.json)
      expect(
        payments.every((p) => p.status === status),
        status,
      ).toBe(true)
      expect(
        payments.find((p) => p.id === mine.get(status)),
        status,
      ).toMatchObject({
        status,
        amount: 750,
        currency: 'KGS',
        purpose: 'package',
        bids: 50,
        provider: 'sandbox',
        user: { id: buyer.id, username: buyer.name },
      })
      expect(answer.json.total as number).toBeGreaterThanOrEqual(payments.length)
    }
    const all = await list('')
    expect(all.status).toBe(200)
    expect(all.json.status).toBeNull()
    const times = rows(all.json).map((p) => Date.parse(p.createdAt))
    expect(times).toEqual([...times].sort((a, b) => b - a))
    // An empty filter is no filter.
    expect((await list('?status=')).json.total).toBe(all.json.total)
  })

  test('20 a page; a page that is no number is the first, one past the end the last', async () => {
    // Enough failed payments of the buyer's for two pages whatever other tests left.
    await e2eDatabase().payment.createMany({
      data: Array.from({ length: 21 }, (_, i) => ({
        userId: buyer.id,
        provider: 'sandbox',
        amount: 150_00,
        status: 'failed' as const,
        failureReason: 'declined',
        createdAt: new Date(Date.now() - 60_000 - i * 1000),
      })),
    })
    const first = await list('?status=failed')
    const total = first.json.total as number
    expect(total).toBeGreaterThanOrEqual(22)
    expect(first.json).toMatchObject({ page: 1, totalPages: Math.ceil(total / 20) })
    expect(rows(first.json)).toHaveLength(20)
    const second = await list('?status=failed&page=2')
    expect(second.json.page).toBe(2)
    const ids = new Set(rows(first.json).map((p) => p.id))
    expect(rows(second.json).length).toBeGreaterThan(0)
    expect(rows(second.json).some((p) => ids.has(p.id))).toBe(false)
    const oldestOnFirst = Date.parse(rows(first.json).at(-1)!.createdAt)
    expect(rows(second.json).every((p) => Date.parse(p.createdAt) <= oldestOnFirst)).toBe(true)

    for (const page of ['abc', '0', '-3', '1.5', '', '1e309']) {
      const answer = await list(`?status=failed&page=${page}`)
      expect(answer.status, page).toBe(200)
      expect(answer.json.page, page).toBe(1)
    }
    const last = await list('?status=failed&page=999999')
    expect(last.status).toBe(200)
    expect(last.json.page).toBe(last.json.totalPages)
  })

  test('a status that is none answers 400 with its error in the language asked; only GET', async () => {
    for (const status of ['bogus', 'PAID', 'paid ', 'awaiting_payment', "'; drop"]) {
      const answer = await list(`?status=${encodeURIComponent(status)}`)
      expect(answer, status).toMatchObject({
        status: 400,
        json: { error: 'Неизвестный статус платежа' },
      })
    }
    expect(await list('?status=nope', 'en')).toMatchObject({
      status: 400,
      json: { error: 'Unknown payment status' },
    })
    const post = await call('/api/admin/payments', { cookie: admin, body: {} })
    expect(post.status).toBe(405)
  })

  test('the page: admins only, plain links to filter and page, status labels in each language', async () => {
    const anonymous = await getPage('/admin/payments?status=held', '', 'ru')
    expect(anonymous.status).toBe(302)
    expect(anonymous.location).toBe(
      `/login?redirectTo=${encodeURIComponent('/admin/payments?status=held')}`,
    )
    const asUser = await getPage('/admin/payments', user, 'ru')
    expect(asUser).toMatchObject({ status: 302, location: '/' })

    const labels: Record<'ru' | 'en', Record<Status, string>> = {
      ru: {
        pending: 'Ожидает',
        paid: 'Оплачен',
        held: 'Задержан',
        refunded: 'Возвращён',
        failed: 'Не прошёл',
        cancelled: 'Отменён',
      },
      en: {
        pending: 'Pending',
        paid: 'Paid',
        held: 'Held',
        refunded: 'Refunded',
        failed: 'Failed',
        cancelled: 'Cancelled',
      },
    }
    for (const language of ['ru', 'en'] as const satisfies readonly Language[]) {
      for (const status of statuses) {
        const page = await getPage(`/admin/payments?status=${status}`, admin, language)
        expect(page.status, `${language} ${status}`).toBe(200)
        const label = labels[language][status]
        // The filter is a plain link, the chosen one marked; the row shows the label.
        expect(filterLink(page.text, `/admin/payments?status=${status}`)).toMatch(
          new RegExp(`^<a [^>]*aria-current="page"[^>]*>${label}</a>$`),
        )
        const row = new RegExp(`<tr [^>]*data-payment-id="${mine.get(status)}"[\\s\\S]*?</tr>`)
        expect(page.text).toMatch(row)
        expect(row.exec(page.text)![0]).toContain(`>${label}</td>`)
        expect(row.exec(page.text)![0]).toContain(buyer.name)
      }
    }
    // Failed payments fill two pages (the test before made them): the pager is plain links.
    const failed = await getPage('/admin/payments?status=failed', admin, 'ru')
    expect(failed.text).toContain('href="/admin/payments?status=failed&amp;page=2"')
    expect((failed.text.match(/<tr [^>]*data-payment-id=/g) ?? []).length).toBe(20)
    // A status or page that is none shows all payments, the first page: never an error.
    const bogus = await getPage('/admin/payments?status=bogus&page=abc', admin, 'ru')
    expect(bogus.status).toBe(200)
    expect(filterLink(bogus.text, '/admin/payments')).toMatch(
      /^<a [^>]*aria-current="page"[^>]*>Все<\/a>$/,
    )
  })
})
