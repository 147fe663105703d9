import { beforeAll, describe, expect, test } from 'vitest'
import { base, call, sessionOf, unique } from './api.ts'

// Runs alone: it sends hostile bodies to the admin calls that change the site and bot settings.

// Hostile input on every JSON route, as anonymous, user and admin: never a 5xx, always a JSON
// answer, and every 4xx carries a message.

const ids = ['x', '..%2F..%2Fetc%2Fpasswd', '%00', 'a'.repeat(5000), '%F0%9F%92%A3', "1'OR'1'='1"]

const routes: Array<[string, string]> = [
  ['POST', '/api/auth/login'],
  ['POST', '/api/auth/register'],
  ['POST', '/api/auth/validate-username'],
  ['POST', '/api/auth/validate-email'],
  ['POST', '/api/auth/validate-phone'],
  ['GET', '/api/auth/me'],
  ['PUT', '/api/users/profile'],
  ['GET', '/api/users/limits'],
  ['PUT', '/api/users/limits'],
  ['POST', '/api/users/push-subscriptions'],
  ['DELETE', '/api/users/push-subscriptions'],
  ['GET', '/api/users/stats'],
  ['GET', '/api/bids/user?active=%00'],
  ['GET', '/api/auctions/slug/:id'],
  ['GET', '/api/auctions/:id/bids'],
  ['GET', '/api/auctions/:id/stats'],
  ['POST', '/api/auctions/:id/bid'],
  ['POST', '/api/auctions/:id/prebid'],
  ['GET', '/api/admin/auctions?page=-1e309'],
  ['POST', '/api/admin/auctions'],
  ['PUT', '/api/admin/auctions/:id'],
  ['DELETE', '/api/admin/auctions/:id'],
  ['POST', '/api/admin/auctions/:id/end'],
  ['POST', '/api/admin/auctions/:id/bots'],
  ['DELETE', '/api/admin/auctions/:id/bots/:id'],
  ['POST', '/api/admin/bots'],
  ['PUT', '/api/admin/bot-settings'],
  ['GET', '/api/admin/users?page=NaN&limit=1e9&search=%25%27%22%3C'],
  ['PATCH', '/api/admin/users/:id'],
  ['GET', '/api/admin/users/:id/activity'],
  ['GET', '/api/admin/auction-stats/:id'],
  ['DELETE', '/api/admin/finished-auctions/:id'],
  ['PUT', '/api/admin/settings'],
  ['POST', '/api/admin/images'],
]

const bodies: Array<string | undefined> = [
  undefined,
  '',
  '{',
  'null',
  '[]',
  '"text"',
  '12',
  JSON.stringify({ __proto__: { role: 'admin' }, constructor: { prototype: { role: 'admin' } } }),
  JSON.stringify({
    username: ['a'],
    email: { $ne: null },
    password: Number.MAX_VALUE,
    title: '<script>alert(1)</script>',
    retailPrice: '1e400',
    startTime: '9999-99-99T99:99',
    bidBalance: '9'.repeat(400),
    role: 'admin',
    firstName: null,
    phone: '+996'.repeat(100),
    botId: {},
    bidLimit: [],
    enabled: 'maybe',
    currency: '☃',
  }),
  JSON.stringify({
    bidBalanceAdjustment: { delta: -1e308, reason: { $ne: null } },
    expectedBidBalance: '1e400',
  }),
  JSON.stringify({ deep: JSON.parse('['.repeat(500) + ']'.repeat(500)) }),
  JSON.stringify({ title: 'x'.repeat(70_000) }),
  JSON.stringify({ username: 'a\u0000b', title: 'a\u0000b', firstName: '\u0000' }),
]

let user = ''
let admin = ''

beforeAll(async () => {
  const name = unique()
  const registered = await call('/api/auth/register', {
    body: { username: name, email: `${name}@mail.kg`, password: 'secret12' },
  })
  user = sessionOf(registered.cookie)
  const login = await call('/api/auth/login', { body: { username: 'admin', password: 'admin123' } })
  admin = sessionOf(login.cookie)
})

describe('hostile input on the JSON API', () => {
  test.each(routes)(
    '%s %s',
    async (method, template) => {
      const problems: string[] = []
      for (const id of ids) {
        const path = template.replaceAll(':id', id)
        for (const cookie of ['', user, admin]) {
          for (const raw of method === 'GET' || method === 'DELETE' ? [undefined] : bodies) {
            const response = await fetch(`${base()}${path}`, {
              method,
              headers: {
                'Content-Type': 'application/json',
                ...(cookie ? { Cookie: cookie } : {}),
              },
              body: raw,
            })
            const text = await response.text()
            let json: { error?: unknown } | null = null
            try {
              json = JSON.parse(text) as { error?: unknown }
            } catch {
              // Reported below.
            }
            const what = `${method} ${path.slice(0, 80)} [${cookie ? (cookie === admin ? 'admin' : 'user') : 'anon'}] ${String(raw).slice(0, 40)}`
            if (response.status >= 500) problems.push(`${what}: ${response.status}`)
            else if (json === null) problems.push(`${what}: not JSON (${response.status})`)
            else if (response.status >= 400 && typeof json.error !== 'string')
              problems.push(`${what}: ${response.status} without a message`)
          }
        }
      }
      expect(problems).toEqual([])
    },
    120_000,
  )
})
