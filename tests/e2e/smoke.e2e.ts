import { describe, expect, test } from 'vitest'
import { hydrated, open, phone, screenshot, setupBrowser } from './browser.ts'

const browser = setupBrowser()

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? 'JS on' : 'JS off'

  describe(`smoke (${mode})`, () => {
    test('the home page renders the shell and the auction sections', async () => {
      const page = await browser.newPage({ javaScriptEnabled })
      const response = await open(page, '/')
      expect(response?.status()).toBe(200)
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBeTruthy()
      expect(await page.getByRole('navigation', { name: 'Основная навигация' }).count()).toBe(1)
      expect(await page.getByRole('heading', { name: 'Активные аукционы' }).isVisible()).toBe(true)
      expect(await page.getByRole('contentinfo').textContent()).toContain('Быстрые ссылки')
      await screenshot(page, `home-${javaScriptEnabled ? 'js' : 'nojs'}`)
    })

    test('an unknown path answers 404 with the not-found page', async () => {
      const page = await browser.newPage({ javaScriptEnabled })
      const response = await page.goto('/no/such/page')
      expect(response?.status()).toBe(404)
      expect(await page.getByRole('heading', { name: '404 Page Not Found' }).isVisible()).toBe(true)
      await page.getByRole('link', { name: 'На главную' }).click()
      await page.waitForURL((url) => url.pathname === '/')
    })

    test('the cookie banner appears after 2 s and remembers "only necessary"', async () => {
      const page = await browser.newPage({ javaScriptEnabled })
      // Looked at as soon as it has loaded, not hydrated: the delay under test runs from the
      // first paint.
      await page.goto('/')
      const banner = page.getByRole('region', { name: 'Мы используем cookie' })
      // Present but held back by a 2 s delay (how long a busy machine took to load the page
      // does not change that), then shown.
      expect(
        await banner.evaluate((element) =>
          element.getAnimations().map((animation) => ({
            name: (animation as CSSAnimation).animationName,
            delay: animation.effect?.getTiming().delay,
          })),
        ),
      ).toEqual([{ name: 'cookie-banner-in', delay: 2000 }])
      await banner.waitFor({ state: 'visible', timeout: 5000 })
      if (javaScriptEnabled) await hydrated(page)
      await banner.getByRole('button', { name: 'Только необходимые' }).click()
      await banner.waitFor({ state: 'detached' })
      const cookies = await page.context().cookies()
      expect(cookies.find((c) => c.name === 'cookie-consent')?.value).toBe('necessary-only')
      expect(
        JSON.parse(decodeURIComponent(cookies.find((c) => c.name === 'cookie-preferences')!.value)),
      ).toEqual({ necessary: true, analytics: false, marketing: false, functional: false })
      // The banner is in the page from its start (shown after a CSS delay) when no choice is
      // stored: loaded and hydrated without it, it does not come.
      await page.reload()
      if (javaScriptEnabled) await hydrated(page)
      expect(await page.getByRole('region', { name: 'Мы используем cookie' }).count()).toBe(0)

      // The footer's cookie settings button forgets the choice: the banner comes back.
      await page.getByRole('button', { name: 'Настройки cookie' }).click()
      await page
        .getByRole('region', { name: 'Мы используем cookie' })
        .waitFor({ state: 'visible', timeout: 5000 })
    })

    test('the language switcher changes the interface language', async () => {
      const page = await browser.newPage({ javaScriptEnabled })
      await open(page, '/auctions-that-do-not-exist')
      // Hydrated, the switcher applies on change and drops its OK button.
      if (javaScriptEnabled)
        await page
          .getByRole('button', { name: 'OK', exact: true })
          .first()
          .waitFor({ state: 'detached' })
      const select = page.getByRole('combobox', { name: 'Язык' }).first()
      await select.selectOption('en')
      if (!javaScriptEnabled)
        await page.getByRole('button', { name: 'OK', exact: true }).first().click()
      await page.getByRole('navigation', { name: 'Main navigation' }).waitFor()
      expect(new URL(page.url()).pathname).toBe('/auctions-that-do-not-exist')
      expect(await page.locator('html').getAttribute('lang')).toBe('en')
    })
  })
}

test('the home page fits a phone screen and its menu opens', async () => {
  const page = await browser.newPage(phone)
  await open(page, '/')
  const width = await page.evaluate(() => document.documentElement.scrollWidth)
  expect(width).toBeLessThanOrEqual(390)
  // The menu opens once the page's scripts have taken over: a click before that does nothing.
  const menu = page.getByRole('navigation', { name: 'Мобильная навигация' })
  await expect
    .poll(async () => {
      if (!(await menu.isVisible())) await page.getByLabel('Меню').click()
      return menu.isVisible()
    })
    .toBe(true)
  await screenshot(page, 'home-phone-menu')
})

test('a page kept for visitors who are not logged in hydrates: its scripts pass the policy', async () => {
  const path = '/how-it-works?kept=browser'
  const page = await browser.newPage()
  const refused: string[] = []
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) refused.push(message.text())
  })
  // The first visit renders the page, which is then kept (server/page-cache.ts, 10 s for a
  // static page); the same browser asking again, with the same Cookie and Accept-Language
  // headers (the page varies by them), is served the kept copy.
  const first = await browser.newPage()
  await open(first, path)
  await first.close()
  const response = await open(page, path)
  expect(response?.headers()['x-page-cache']).toBe('hit')
  // Hydrated, the language switcher applies on change and drops its OK button.
  await page.getByRole('button', { name: 'OK', exact: true }).first().waitFor({ state: 'detached' })
  expect(refused).toEqual([])
})

test('the style sheet comes inside the document and stays through hydration and navigation', async () => {
  const page = await browser.newPage()
  const errors: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  page.on('pageerror', (error) => errors.push(error.message))
  const stylesheets: string[] = []
  page.on('request', (request) => {
    if (request.resourceType() === 'stylesheet') stylesheets.push(request.url())
  })
  const styles = () =>
    page.evaluate(() => ({
      linked: document.querySelectorAll('link[rel="stylesheet"]').length,
      inline: [...document.querySelectorAll('head style[data-href="site"]')].map((style) => ({
        text: style.textContent?.length ?? 0,
        rules: (style as HTMLStyleElement).sheet?.cssRules.length ?? 0,
      })),
      background: getComputedStyle(document.body).backgroundColor,
    }))
  const response = await open(page, '/')
  const html = await response!.text()
  expect(html).toMatch(/<head>.*<style [^>]*data-href="site"[^>]*>[^<]*@layer theme.*<\/head>/s)
  const first = await styles()
  expect(first.linked).toBe(0)
  expect(first.inline).toHaveLength(1)
  expect(first.inline[0]!.text).toBeGreaterThan(20_000)
  expect(first.inline[0]!.rules).toBeGreaterThan(10)
  expect(first.background).not.toBe('rgba(0, 0, 0, 0)')
  // A navigation in the page (no new document) keeps the sheet.
  await page
    .getByRole('navigation', { name: 'Основная навигация' })
    .getByRole('link', { name: 'Как это работает' })
    .click()
  await page.waitForURL((url) => url.pathname === '/how-it-works')
  await page.getByRole('heading', { level: 1 }).waitFor()
  expect(await styles()).toEqual(first)
  expect(stylesheets).toEqual([])
  expect(errors).toEqual([])
})
