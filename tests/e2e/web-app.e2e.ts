import type { Page } from 'playwright-core'
import { describe, expect, test, vi } from 'vitest'
import { base } from './api.ts'
import { open, setupBrowser } from './browser.ts'
import { newUser } from './people.ts'

// The installable app (docs/push.md): the manifest and its icons, the service worker that keeps
// the build files and shows the offline page when the network is gone, and the profile's push
// section, with JavaScript and without it.
// The whole browser: the headless shell shows no notifications (chromium.ts).
const browser = setupBrowser({ kind: 'browser' })

/** A PNG's width and height, from its IHDR chunk. */
const pngSize = (bytes: Buffer) => `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`

/** What an async check in the page answers, once it answers something (waits for it). */
async function until<T>(page: Page, check: () => Promise<T | null | false>): Promise<T> {
  return vi.waitFor(
    async () => {
      const value = await page.evaluate(check)
      if (!value) throw new Error('not yet')
      return value
    },
    { timeout: 15_000, interval: 100 },
  )
}

/** Errors the page's scripts throw, collected from now on. */
function pageErrors(page: Page): Error[] {
  const errors: Error[] = []
  page.on('pageerror', (error) => errors.push(error))
  return errors
}

test('the manifest names the site and its icons; every page links it', async () => {
  const response = await fetch(`${base()}/manifest.webmanifest`)
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toMatch(/^application\/manifest\+json/)
  const manifest = await response.json()
  const settings = await (await fetch(`${base()}/api/settings`)).json()
  expect(manifest).toMatchObject({
    name: settings.siteName,
    start_url: '/',
    scope: '/',
    display: 'standalone',
    theme_color: '#d97706',
    background_color: '#f8fafc',
  })
  expect(manifest.short_name.length).toBeLessThanOrEqual(12)
  const sizes = new Set<string>()
  for (const icon of manifest.icons as { src: string; sizes: string; type: string }[]) {
    const file = await fetch(`${base()}${icon.src}`)
    expect(file.headers.get('content-type')).toBe(icon.type)
    expect(pngSize(Buffer.from(await file.arrayBuffer()))).toBe(icon.sizes)
    sizes.add(icon.sizes)
  }
  expect([...sizes].sort()).toEqual(['192x192', '512x512'])

  const html = await (await fetch(`${base()}/how-it-works`)).text()
  expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest"/>')
  expect(html).toContain('<meta name="theme-color" content="#d97706"/>')
  expect(html).toMatch(/<link rel="apple-touch-icon" href="\/icons\/apple-touch-icon.png"\/>/)

  const worker = await fetch(`${base()}/sw.js`)
  expect(worker.headers.get('content-type')).toMatch(/^text\/javascript/)
  expect(worker.headers.get('cache-control')).toBe('no-cache')
  const code = await worker.text()
  expect(code).toMatch(/const VERSION = "[\w-]{16}"/)
  expect(code).toContain('const OFFLINE_PAGES = {"ru":"/offline?lang=ru",')
})

describe('with JavaScript', () => {
  test('the service worker keeps the build files, never a page, and shows the offline page', async () => {
    const page = await browser.newPage({ locale: 'en-US', serviceWorkers: 'allow' })
    const errors = pageErrors(page)
    await open(page, '/how-it-works')
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null)
    // The page told the worker its language; then a load through the worker keeps its files.
    await until(page, async () => {
      const kept = await caches.match('/__service-worker/language')
      return (await kept?.text()) === 'en'
    })
    await open(page, '/how-it-works')
    const kept = await page.evaluate(async () => {
      const all: string[] = []
      for (const name of await caches.keys()) {
        const cache = await caches.open(name)
        for (const request of await cache.keys())
          all.push(new URL(request.url).pathname + new URL(request.url).search)
      }
      return all
    })
    expect(kept.filter((url) => url.startsWith('/assets/')).length).toBeGreaterThan(0)
    expect(kept.filter((url) => !url.startsWith('/assets/')).sort()).toEqual([
      '/__service-worker/language',
      '/offline?lang=en',
      '/offline?lang=ka',
      '/offline?lang=ky',
      '/offline?lang=ru',
    ])

    await page.context().setOffline(true)
    await page.goto('/support')
    await page.getByRole('heading', { level: 1, name: 'You are offline' }).waitFor()
    expect(new URL(page.url()).pathname).toBe('/support')

    await page.context().setOffline(false)
    await page.getByRole('link', { name: 'Try again' }).click()
    await page.getByRole('heading', { level: 1, name: 'Support' }).waitFor()
    expect(errors).toEqual([])
  })

  test("a push becomes a notification with the alert's title, text and address", async () => {
    const page = await browser.newPage({ serviceWorkers: 'allow' })
    await page.context().grantPermissions(['notifications'], { origin: base() })
    await open(page, '/how-it-works')
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null)
    // Chromium's DevTools protocol hands the worker a push as its push service would.
    const cdp = await page.context().newCDPSession(page)
    const registrationId = new Promise<string>((resolve) => {
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
        const live = registrations.find((r) => !r.isDeleted && r.scopeURL === `${base()}/`)
        if (live) resolve(live.registrationId)
      })
    })
    await cdp.send('ServiceWorker.enable')
    const alert = {
      title: 'Вашу ставку перебили',
      body: 'iPhone 15 — 12,40 сом',
      url: `${base()}/auctions`,
    }
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: base(),
      registrationId: await registrationId,
      data: JSON.stringify(alert),
    })
    const shown = await until(page, async () => {
      const registration = await navigator.serviceWorker.ready
      const [notification] = await registration.getNotifications()
      return notification
        ? { title: notification.title, body: notification.body, data: notification.data }
        : null
    })
    expect(shown).toEqual({
      title: alert.title,
      body: alert.body,
      data: { url: alert.url },
    })
  })

  test('the profile offers to turn notifications on for this device', async () => {
    const page = await browser.newPage({ serviceWorkers: 'allow' })
    const errors = pageErrors(page)
    await newUser(page, 'push')
    await open(page, '/profile')
    const section = page.getByRole('region', { name: 'Уведомления в браузере' })
    await section.getByRole('button', { name: 'Включить уведомления на этом устройстве' }).waitFor()
    expect(await section.textContent()).toContain('На этом устройстве уведомления выключены.')
    expect(await section.textContent()).toContain('Устройств с уведомлениями: 0')
    expect(errors).toEqual([])
  })
})

describe('without JavaScript', () => {
  test('pages work as before: no worker, and the push section says it needs JavaScript', async () => {
    const page = await browser.newPage({ javaScriptEnabled: false, serviceWorkers: 'allow' })
    const errors = pageErrors(page)
    await newUser(page, 'pushnojs')
    const response = await open(page, '/profile')
    expect(response?.status()).toBe(200)
    const section = page.getByRole('region', { name: 'Уведомления в браузере' })
    expect(await section.textContent()).toContain(
      'Чтобы включить уведомления, разрешите JavaScript в браузере.',
    )
    expect(await section.getByRole('button').count()).toBe(0)
    await open(page, '/how-it-works')
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Как это работает')
    expect(page.context().serviceWorkers()).toEqual([])
    expect(errors).toEqual([])
  })
})
