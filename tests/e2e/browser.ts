import { mkdirSync } from 'node:fs'
import path from 'node:path'
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
} from 'playwright-core'
import { afterAll, beforeAll, inject } from 'vitest'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const artifacts = path.resolve(import.meta.dirname, 'artifacts')

/** One Chromium per test file; every test opens its own context (cookies start empty). */
export function setupBrowser() {
  let browser: Browser | undefined
  const contexts: BrowserContext[] = []
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    })
  })
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => {})
    await browser?.close()
  })
  return {
    baseUrl: () => inject('baseUrl'),
    async newPage(options: BrowserContextOptions = {}): Promise<Page> {
      if (!browser) throw new Error('browser not started')
      const context = await browser.newContext({
        baseURL: inject('baseUrl'),
        locale: 'ru-RU',
        timezoneId: 'Asia/Bishkek',
        ...options,
      })
      contexts.push(context)
      return context.newPage()
    },
  }
}

export async function screenshot(page: Page, name: string) {
  mkdirSync(artifacts, { recursive: true })
  await page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true })
}

export const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }
