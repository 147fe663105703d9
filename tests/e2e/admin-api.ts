import { expect } from 'vitest'
import { call, sessionOf, unique } from './api.ts'

// What the tests of the admin's calls start from: the seeded admin's session, a plain user's.

/** A new session of the seeded admin (prisma/seed.ts). */
export async function adminSession() {
  const login = await call('/api/auth/login', { body: { username: 'admin', password: 'admin123' } })
  expect(login.status).toBe(200)
  return sessionOf(login.cookie)
}

/** The admin's session and a new plain user's, as the Cookie headers they send. */
export async function adminAndUser() {
  const admin = await adminSession()
  const name = unique()
  const registered = await call('/api/auth/register', {
    body: { username: name, email: `${name}@mail.kg`, password: 'secret12' },
  })
  return { admin, user: sessionOf(registered.cookie) }
}

/** A start time an hour from now, as the API takes it. */
export const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString()
