import type { Page } from 'playwright-core'
import { describe, expect, test } from 'vitest'
import { escapeHtml } from '../../app/utils/html.ts'
import { call, sessionOf } from './api.ts'
import { e2eDatabase } from './auctions.ts'
import { open, setupBrowser } from './browser.ts'
import { newUser } from './people.ts'

// Stored XSS: hostile text saved through the API and the profile form is shown as text. The
// Content-Security-Policy blocks an injected inline script anyway, so "the probe did not run"
// would prove nothing: each page is checked for what it is made of instead. The value is an
// element's whole text, no element was made of it, the HTML as sent has it escaped, and the
// browser blocked no script (a blocked one is a script that got into the page).
const browser = setupBrowser()
const PROBE = 'window.__xss=1'
/** Breaks out of markup, an attribute and an inline script alike, unless escaped. */
const HOSTILE = `<img src=x onerror="${PROBE}"></script><script>${PROBE}</script>"'&`
const title = `Лот ${HOSTILE}`
const description = `Описание ${HOSTILE}`
const category = `Категория ${HOSTILE}`
/** The same within the 50 characters of a name; shown on /profile, in every page's data. */
const firstName = `</script><img src=x><script>${PROBE}`
/** What only unescaped output would put in the HTML. */
const UNESCAPED = [`<img src=x`, `<script>${PROBE}`]
/** The home page shows this many upcoming auctions (app/routes/_index.tsx), /auctions 12. */
const UPCOMING_ON_HOME = 9

/**
 * Loads `path` and checks that each of `texts` is the whole text of an element on it and
 * escaped in the HTML, and that nothing in the page came of the hostile values.
 */
async function expectOnlyText(page: Page, path: string, texts: string[]) {
  const blocked: string[] = []
  const onConsole = (message: { text(): string }) => {
    if (message.text().includes('Content Security Policy')) blocked.push(message.text())
  }
  page.on('console', onConsole)
  const response = await open(page, path)
  const html = (await response?.text()) ?? ''
  expect(response?.status(), path).toBe(200)
  // Loaded and hydrated (`open`): every script the page would run has run. Not "network idle",
  // which a live connection falling back to long polling on a busy machine may never reach.
  page.off('console', onConsole)

  for (const fragment of UNESCAPED)
    expect(html.includes(fragment), `${path} has ${fragment} unescaped`).toBe(false)
  for (const text of texts) {
    expect(html.includes(escapeHtml(text)), `${path} has ${text} escaped`).toBe(true)
    const shown = page.getByText(text, { exact: true }).first()
    expect(await shown.evaluate((element) => element.textContent), path).toBe(text)
  }
  expect(await page.locator('img[src="x"]').count(), path).toBe(0)
  const injected = await page.evaluate(
    (probe) => [...document.scripts].filter((script) => script.text.trim() === probe).length,
    PROBE,
  )
  expect(injected, path).toBe(0)
  expect(blocked, path).toEqual([])
}

describe('hostile text renders as text', () => {
  test('an auction title, description and category, and a person’s name', async () => {
    expect(firstName.length).toBeLessThanOrEqual(50)
    const login = await call('/api/auth/login', {
      body: { username: 'admin', password: 'admin123' },
    })
    const admin = sessionOf(login.cookie)
    // Upcoming for the whole test and among the first few to start (checked below), so the
    // home page and the first page of /auctions show it.
    const startTime = new Date(Date.now() + 10 * 60_000)
    const created = await call('/api/admin/auctions', {
      cookie: admin,
      body: {
        title,
        description,
        category,
        retailPrice: 100,
        startTime: startTime.toISOString(),
      },
    })
    expect(created.status).toBe(201)
    const ahead = await e2eDatabase().auction.count({
      where: { status: 'upcoming', startTime: { lt: startTime } },
    })
    expect(ahead, 'upcoming auctions ahead of the test’s').toBeLessThan(UPCOMING_ON_HOME)

    const page = await browser.newPage()
    await newUser(page, 'xss')
    await open(page, '/profile?edit=1')
    const form = page
      .getByRole('region', { name: 'Личная информация' })
      .locator('form[action="/profile"]')
    await form.getByLabel('Имя *').fill(firstName)
    await form.getByLabel('Фамилия *').fill('Тест')
    await form.getByRole('button', { name: 'Сохранить' }).click()
    await page.getByText('Профиль обновлен').first().waitFor()

    // Signed in, the shared pages carry the person's own values (firstName among them) in
    // their data; a visitor's are rendered apart.
    const visitor = await browser.newPage()
    for (const who of [page, visitor]) {
      await expectOnlyText(who, '/', [title])
      await expectOnlyText(who, '/auctions', [title])
      await expectOnlyText(who, `/auction/${created.json.slug as string}`, [
        title,
        description,
        category,
      ])
    }
    await expectOnlyText(page, '/profile', [firstName])
  })
})
