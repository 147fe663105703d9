import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { startApp, waitFor, type App } from '../setup/stack.ts'
import { call, sessionOf } from './api.ts'

// Runs alone: it saves the site settings every page shows.

// docs/rules.md#settings: an admin's save shows at once in `GET /api/settings` and on the pages
// of the instance that saved it, and within 2 s on every other instance; what caching remains
// follows HTTP's rules (docs/decisions/045-settings-everywhere-at-once.md).

let admin = ''
let before: Record<string, unknown> = {}
/** A second instance of the same install: same database, same Redis keys, no engine workers. */
let other: App | undefined

beforeAll(async () => {
  const login = await call('/api/auth/login', { body: { username: 'admin', password: 'admin123' } })
  admin = sessionOf(login.cookie)
  before = (await call('/api/admin/settings', { method: 'GET', cookie: admin })).json
  other = await startApp({
    databaseUrl: inject('e2eDatabaseUrl'),
    redisUrl: inject('e2eRedisUrl'),
    prefix: inject('e2eRedisPrefix'),
    label: 'settings-peer',
    env: { ENGINE_WORKERS: '0' },
  })
})

afterAll(async () => {
  await call('/api/admin/settings', { method: 'PUT', cookie: admin, body: before })
  // The peer shares the e2e server's keys, which stay.
  await other?.stop()
})

const publicSettings = async (url: string) =>
  (await (await fetch(`${url}/api/settings`)).json()) as Record<string, unknown>

/** The home page as a visitor without a session gets it (kept by the page cache when it may). */
const homePage = async (url: string) =>
  (await fetch(`${url}/`, { headers: { 'Accept-Language': 'ru' } })).text()

/** The site name at once in this instance's answers and pages, within 2 s in the other's. */
async function shownEverywhere(siteName: string, savedAt: number) {
  expect((await publicSettings(inject('baseUrl'))).siteName).toBe(siteName)
  expect(await homePage(inject('baseUrl'))).toContain(siteName)
  await waitFor(
    'the other instance to show the new settings',
    async () =>
      (await publicSettings(other!.url)).siteName === siteName &&
      (await homePage(other!.url)).includes(siteName),
    2_000,
    50,
  )
  expect(Date.now() - savedAt).toBeLessThan(2_000)
}

/** Fetches both, so that each instance holds the current values in every cache it has. */
async function warm(url: string) {
  for (let i = 0; i < 2; i++) await Promise.all([publicSettings(url), homePage(url)])
}

describe('settings saved by an admin', () => {
  test('GET /api/settings follows HTTP: revalidated by its ETag, 304 when unchanged', async () => {
    const url = inject('baseUrl')
    const response = await fetch(`${url}/api/settings`)
    const cacheControl = response.headers.get('cache-control') ?? ''
    const maxAge = Number(/max-age=(\d+)/.exec(cacheControl)?.[1] ?? 0)
    expect(maxAge).toBeLessThanOrEqual(2)
    const etag = response.headers.get('etag')
    expect(etag).toBeTruthy()
    const again = await fetch(`${url}/api/settings`, { headers: { 'If-None-Match': etag! } })
    expect(again.status).toBe(304)
  })

  test('through the API: at once here, within 2 s on another instance', async () => {
    const here = inject('baseUrl')
    const there = other!.url
    await Promise.all([warm(here), warm(there)])
    const siteName = `Аукцион API ${Date.now().toString(36)}`
    const saved = await call('/api/admin/settings', {
      method: 'PUT',
      cookie: admin,
      body: { ...before, siteName, headerTagline: 'Новый слоган' },
    })
    expect(saved.status).toBe(200)
    const savedAt = Date.now()
    expect(await publicSettings(here)).toMatchObject({ siteName, headerTagline: 'Новый слоган' })
    await shownEverywhere(siteName, savedAt)
  })

  test('through the settings page: at once here, within 2 s on another instance', async () => {
    const here = inject('baseUrl')
    const there = other!.url
    await Promise.all([warm(here), warm(there)])
    const siteName = `Аукцион форма ${Date.now().toString(36)}`
    const form = new URLSearchParams({ intent: 'save' })
    for (const [name, value] of Object.entries({ ...before, siteName })) {
      if (typeof value === 'boolean') {
        form.append(name, 'false')
        if (value) form.append(name, 'true')
      } else form.append(name, String(value ?? ''))
    }
    const response = await fetch(`${here}/admin/settings`, {
      method: 'POST',
      redirect: 'manual',
      headers: { Cookie: admin, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: form,
    })
    // Saved: back to the form with its toast.
    expect(response.status).toBe(302)
    const savedAt = Date.now()
    await shownEverywhere(siteName, savedAt)
  })
})
