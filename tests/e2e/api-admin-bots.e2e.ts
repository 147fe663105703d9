import { beforeAll, describe, expect, test } from 'vitest'
import { call, unique } from './api.ts'
import { adminSession, inAnHour } from './admin-api.ts'

// Runs alone: it changes the bot settings, which every auction's bots follow.

// The admin's calls for the house bots (docs/rules.md#calls): their settings, bots made, assigned
// to an auction and deleted.

let admin = ''

beforeAll(async () => {
  admin = await adminSession()
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
