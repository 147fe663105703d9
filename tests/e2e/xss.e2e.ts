import { describe, expect, test } from 'vitest'
import { call, sessionOf } from './api.ts'
import { setupBrowser } from './browser.ts'
import { newUser } from './people.ts'

// Stored XSS: hostile text saved through the API is shown as text, and no script of it runs.
const browser = setupBrowser()
const hostile = `<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>"'&`

describe('hostile text renders as text', () => {
  test('an auction title and a person’s name', async () => {
    const login = await call('/api/auth/login', {
      body: { username: 'admin', password: 'admin123' },
    })
    const admin = sessionOf(login.cookie)
    const created = await call('/api/admin/auctions', {
      cookie: admin,
      body: {
        title: `Лот ${hostile}`,
        description: hostile,
        category: hostile,
        retailPrice: 100,
        startTime: new Date(Date.now() + 3_600_000).toISOString(),
      },
    })
    expect(created.status).toBe(201)

    const page = await browser.newPage()
    await newUser(page, 'xss')
    await page.goto('/profile?edit=1')
    const form = page.locator('form[action="/profile"]')
    await form.getByLabel('Имя *').fill(hostile.slice(0, 50))
    await form.getByLabel('Фамилия *').fill('Тест')
    await form.getByRole('button', { name: 'Сохранить' }).click()
    await page.getByText('Профиль обновлен').first().waitFor()

    for (const path of ['/', '/auctions', `/auction/${created.json.slug as string}`, '/profile']) {
      await page.goto(path)
      await page.waitForLoadState('networkidle')
      expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss), path).toBe(
        undefined,
      )
    }
    await page.goto(`/auction/${created.json.slug as string}`)
    await page.getByRole('heading', { level: 1, name: `Лот ${hostile}` }).waitFor()
    expect(await page.locator('img[src="x"]').count()).toBe(0)
  })
})
