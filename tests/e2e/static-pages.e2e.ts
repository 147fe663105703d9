import { createRequire } from 'node:module'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, test } from 'vitest'
import { open, phone, screenshot, setupBrowser } from './browser.ts'
import { newUser } from './people.ts'
import kyrgyz from '../../app/locales/ky/common.json'
import kyrgyzPages from '../../app/locales/ky/pages.json'

// The static pages of docs/rules.md#static-pages (how it works, support, rules, legal texts, welcome
// preview): server-rendered, complete without JavaScript, translated, and readable on a phone.
const browser = setupBrowser()

const pages = [
  {
    path: '/how-it-works',
    h1: 'Как это работает',
    en: 'How it works',
    content: ['0,50 сом', 'После каждой ставки таймер возвращается ровно к'],
  },
  {
    path: '/support',
    h1: 'Поддержка',
    en: 'Support',
    content: ['10:00–16:00', 'в течение 24 часов'],
  },
  {
    path: '/auction-rules',
    h1: 'Правила аукциона',
    en: 'Auction rules',
    content: ['200 сом', '1–2 рабочих дня', '48 часов'],
  },
  {
    path: '/privacy-policy',
    h1: 'Политика конфиденциальности',
    en: 'Privacy policy',
    content: ['«Об информации персонального характера»', 'Маркетинговые'],
  },
  {
    path: '/terms-of-service',
    h1: 'Условия использования',
    en: 'Terms of service',
    content: ['Гражданским кодексом Кыргызской Республики', 'самый маленький пакет — 50 ставок'],
  },
  {
    path: '/welcome-preview',
    h1: 'Приветствие новых участников',
    en: 'Welcome for new members',
    content: ['Добро пожаловать, гость!'],
  },
] as const

async function horizontalOverflow(page: Page) {
  return page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  )
}

/** Texts that look like translation keys ("howItWorks.title"), i.e. a missing namespace. */
async function rawKeys(page: Page) {
  const text = await page.locator('main').innerText()
  return text.match(/\b(shared|howItWorks|support|rules|privacy|terms|welcomePreview)\.[\w.]+/g)
}

/** The `lng` cookie is a Remix cookie: base64 of the JSON value. */
async function chooseLanguage(page: Page, language: string) {
  const value = encodeURIComponent(Buffer.from(JSON.stringify(language)).toString('base64'))
  await page.context().addCookies([{ name: 'lng', value, url: browser.baseUrl() }])
}

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? 'js' : 'nojs'

  describe(`static pages (${javaScriptEnabled ? 'JS on' : 'JS off'})`, () => {
    for (const { path, h1, content } of pages) {
      test(`${path}: one h1, its content, a title, and no sideways scrolling on a phone`, async () => {
        const page = await browser.newPage({ javaScriptEnabled, ...phone, consented: true })
        const response = await open(page, path)
        expect(response?.status()).toBe(200)
        await page.getByRole('heading', { level: 1, name: h1 }).waitFor()
        expect(await page.locator('h1').count()).toBe(1)
        expect(await page.title()).toBe(h1)
        for (const text of content) await page.getByText(text).first().waitFor()
        expect(await rawKeys(page)).toBeNull()
        expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0)
        await screenshot(page, `static${path.replace('/', '-')}-${mode}`)
      })
    }

    test('FAQ entries open on click (native disclosures)', async () => {
      const page = await browser.newPage({ javaScriptEnabled, consented: true })
      for (const [path, question, answer] of [
        ['/how-it-works', 'Вернут ли ставки, если я не выиграл?', 'Потраченные ставки не'],
        ['/support', 'Как удалить аккаунт и мои данные?', 'Неиспользованные ставки'],
      ] as const) {
        await open(page, path)
        const faq = page.locator('details').filter({ hasText: question })
        const answerText = faq.getByText(answer)
        expect(await answerText.isVisible()).toBe(false)
        await faq.locator('summary').click()
        await answerText.waitFor({ state: 'visible' })
        expect(await faq.getAttribute('open')).not.toBeNull()
        expect(await page.locator('main details').count()).toBe(path === '/support' ? 5 : 4)
      }
    })

    test('the support channels come from the site settings', async () => {
      const page = await browser.newPage({ javaScriptEnabled })
      await open(page, '/support')
      const channels = page.getByRole('region', { name: 'Как с нами связаться' })
      await channels.getByRole('heading', { name: 'WhatsApp' }).waitFor()
      const hrefs = await channels
        .getByRole('link')
        .evaluateAll((links) => links.map((link) => link.getAttribute('href')))
      expect(hrefs).toEqual([
        'mailto:support@auction.example.kg',
        'https://wa.me/996555000111',
        'https://t.me/auctionkg_support',
      ])
      const hours = page.getByRole('region', { name: 'Часы работы' })
      for (const text of ['9:00–18:00', '10:00–16:00', 'выходной'])
        await hours.getByText(text).waitFor()
    })

    test('in English with the language cookie', async () => {
      const page = await browser.newPage({ javaScriptEnabled })
      await chooseLanguage(page, 'en')
      for (const { path, en } of pages) {
        await open(page, path)
        await page.getByRole('heading', { level: 1, name: en }).waitFor()
        expect(await page.title()).toBe(en)
        expect(await page.locator('h1').innerText()).toBe(en)
        expect(await rawKeys(page)).toBeNull()
      }
      await open(page, '/how-it-works')
      await page.getByText('0.50 som').first().waitFor()
    })

    test('the welcome preview greets a member by name', async () => {
      const page = await browser.newPage({ javaScriptEnabled })
      const name = await newUser(page, `${mode}wp`)
      await open(page, '/welcome-preview')
      await page.getByRole('heading', { level: 1, name: 'Приветствие новых участников' }).waitFor()
      await page.getByRole('heading', { level: 2, name: `Добро пожаловать, ${name}!` }).waitFor()
      expect(await page.getByRole('link', { name: 'Зарегистрироваться' }).count()).toBe(0)
      // It is a page, not the dialog.
      expect(await page.getByRole('dialog').count()).toBe(0)
    })
  })
}

test('a guest is invited to register from the welcome preview', async () => {
  const page = await browser.newPage({ javaScriptEnabled: false })
  await open(page, '/welcome-preview')
  await page.getByText('5 бесплатных ставок').waitFor()
  await page.getByRole('main').getByRole('link', { name: 'Зарегистрироваться' }).click()
  await page.waitForURL((url) => url.pathname === '/login')
  expect(new URL(page.url()).searchParams.get('tab')).toBe('register')
})

test('client-side navigation to /how-it-works renders the translated page', async () => {
  // Wide enough for the header's main navigation.
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, consented: true })
  await open(page, '/')
  // A full reload would lose this marker; a client-side navigation keeps it.
  await page.evaluate(() => Object.assign(window, { __sameDocument: true }))
  await page
    .getByRole('navigation', { name: 'Основная навигация' })
    .getByRole('link', { name: 'Как это работает' })
    .click()
  await page.waitForURL((url) => url.pathname === '/how-it-works')
  await page.getByRole('heading', { level: 1, name: 'Как это работает' }).waitFor()
  await page.getByText('0,50 сом').first().waitFor()
  expect(await page.evaluate(() => '__sameDocument' in window)).toBe(true)
  expect(await rawKeys(page)).toBeNull()
  expect(await page.title()).toBe('Как это работает')

  // And on to the rules from the footer, then back.
  await page.getByRole('contentinfo').getByRole('link', { name: 'Правила аукциона' }).click()
  await page.getByRole('heading', { level: 1, name: 'Правила аукциона' }).waitFor()
  await page.goBack()
  await page.getByRole('heading', { level: 1, name: 'Как это работает' }).waitFor()
  expect(await page.evaluate(() => '__sameDocument' in window)).toBe(true)
})

test('the Georgian and Kyrgyz texts are complete and fit a phone too', async () => {
  for (const language of ['ka', 'ky']) {
    const page = await browser.newPage({ javaScriptEnabled: false, ...phone, consented: true })
    await chooseLanguage(page, language)
    for (const { path, h1 } of pages) {
      const response = await open(page, path)
      expect(response?.status()).toBe(200)
      expect(await page.locator('html').getAttribute('lang')).toBe(language)
      const heading = await page.locator('h1').innerText()
      expect(heading.trim()).not.toBe('')
      expect(heading).not.toBe(h1)
      expect(await rawKeys(page)).toBeNull()
      expect(await horizontalOverflow(page), `${language} ${path}`).toBeLessThanOrEqual(0)
    }
    await open(page, '/privacy-policy')
    await screenshot(page, `static-privacy-policy-${language}`)
  }
})

test('no serious accessibility violations (axe, WCAG 2.1 A/AA) on a phone', async () => {
  const axeSource = readFileSync(
    createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
    'utf8',
  )
  const page = await browser.newPage({ ...phone, consented: true })
  const found: string[] = []
  for (const { path } of pages) {
    await open(page, path)
    // Open every disclosure so their answers are checked too.
    await page.evaluate(() =>
      document.querySelectorAll<HTMLDetailsElement>('main details').forEach((d) => (d.open = true)),
    )
    await page.addScriptTag({ content: axeSource })
    const violations = await page.evaluate(async () => {
      type Result = { violations: Array<{ id: string; impact: string | null; nodes: unknown[] }> }
      const axe = (
        window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<Result> } }
      ).axe
      const result = await axe.run(document, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      })
      return result.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id} (${v.nodes.length})`)
    })
    found.push(...violations.map((v) => `${path}: ${v}`))
  }
  expect(found).toEqual([])
})

test('a page hydrates with the texts it came with, in its language; another page fetches its own', async () => {
  // The locale chunks are named after their files (app/locales/ru/*.json).
  const names = readdirSync(path.resolve(import.meta.dirname, '../../app/locales/ru'))
    .map((file) => file.replace(/\.json$/, ''))
    .join('|')
  const localeChunk = new RegExp(`/assets/(${names})-[\\w-]{8}\\.js$`)
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, consented: true })
  await chooseLanguage(page, 'ky')
  const chunks: string[] = []
  const errors: string[] = []
  page.on('request', (request) => {
    if (localeChunk.test(request.url())) chunks.push(new URL(request.url()).pathname)
  })
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  await open(page, '/')
  const texts = JSON.parse((await page.locator('script#page-texts').textContent()) ?? '{}') as {
    common: { nav: { howItWorks: string } }
  }
  // The home page's namespaces (the root's and its route's), in Kyrgyz, and nothing else.
  expect(Object.keys(texts).sort()).toEqual(['common', 'watch'])
  expect(texts.common.nav.howItWorks).toBe(kyrgyz.nav.howItWorks)
  expect(chunks).toEqual([])
  await page
    .getByRole('navigation', { name: kyrgyz.nav.main })
    .getByRole('link', { name: kyrgyz.nav.howItWorks })
    .click()
  await page.getByRole('heading', { level: 1, name: kyrgyzPages.howItWorks.title }).waitFor()
  expect(await rawKeys(page)).toBeNull()
  // Its namespace in Kyrgyz only: the browser has no fallback language to fetch.
  expect(chunks).toEqual([expect.stringMatching(/\/pages-/)])
  expect(errors).toEqual([])
})
