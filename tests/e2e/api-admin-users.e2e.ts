import { beforeAll, describe, expect, test } from 'vitest'
import { call, sessionOf, unique } from './api.ts'
import { adminSession } from './admin-api.ts'

// Runs alone: it reads the list of all users and the count of today's registrations.

// The admin's calls for people's accounts (docs/rules.md#calls): search, edit, activity, delete.

let admin = ''

beforeAll(async () => {
  admin = await adminSession()
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
