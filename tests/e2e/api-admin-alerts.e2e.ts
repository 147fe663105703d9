import { expect, test } from 'vitest'
import { call, newAccount, sessionOf } from './api.ts'
import { getPage } from './pages.ts'

// The alert queue's figures for admins (docs/operations.md#the-alert-queue): the JSON and the
// page, for admins only.

test('admins read the queue, the channels and the dead letters; others are refused', async () => {
  const login = await call('/api/auth/login', { body: { username: 'admin', password: 'admin123' } })
  expect(login.status).toBe(200)
  const admin = sessionOf(login.cookie)
  const answer = await call('/api/admin/alerts', { method: 'GET', cookie: admin })
  expect(answer.status).toBe(200)
  expect(answer.json).toMatchObject({
    queue: {
      waiting: expect.any(Number),
      delayed: expect.any(Number),
      pending: expect.any(Number),
    },
    channels: [
      { channel: 'telegram', sent: expect.any(Number), failed: expect.any(Number) },
      { channel: 'push', sent: expect.any(Number), failed: expect.any(Number) },
    ],
    deadLetters: expect.any(Array),
  })

  const page = await getPage('/admin/alerts', admin, 'ru')
  expect(page.status).toBe(200)
  expect(page.text).toContain('Недоставленные уведомления')
  const dashboard = await getPage('/admin', admin, 'ru')
  expect(dashboard.text).toContain('href="/admin/alerts"')

  const { cookie } = await newAccount()
  expect((await call('/api/admin/alerts', { method: 'GET', cookie })).status).toBe(403)
  expect((await call('/api/admin/alerts', { method: 'GET' })).status).toBe(401)
})
