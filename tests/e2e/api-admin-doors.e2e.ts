import { beforeAll, describe, expect, test } from 'vitest'
import { call, newAccount } from './api.ts'

// Runs alone: as the rest of the admin API's tests (api-admin-*.e2e.ts), some of which change the
// bot and site settings every other file's pages show.

// The doors of the /api/admin calls of docs/rules.md#calls: anonymous callers and plain users are
// turned away from every one.

let user = ''

beforeAll(async () => {
  user = (await newAccount()).cookie
})

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
