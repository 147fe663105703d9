import type { Page } from 'playwright-core'
import { expect } from 'vitest'
import type { PageOptions, setupBrowser } from './browser.ts'
import { signIn } from './people.ts'

// What the admin dashboard's tests (admin-dashboard.e2e.ts, admin-dashboard-layout.e2e.ts) do on
// /admin and its dialog routes (/admin/auctions/new, /admin/auctions/ID/edit, …).

/**
 * An admin's page. The cookie banner was answered before: without JavaScript it shows at once
 * and sits over the table's first row.
 */
export async function newAdminPage(
  browser: ReturnType<typeof setupBrowser>,
  options: PageOptions = {},
): Promise<Page> {
  const page = await browser.newPage({ ...options, consented: true })
  await signIn(page, 'admin', 'admin123')
  return page
}

/** A dialog route: a dialog with JavaScript, a section (region) of the page without. */
export const dialog = (page: Page, javaScriptEnabled: boolean, name: string | RegExp) =>
  page.getByRole(javaScriptEnabled ? 'dialog' : 'region', { name })

/** Leaves the browser's own constraint checks out so the server's answer is what is tested. */
export const noBrowserValidation = (page: Page) =>
  page.evaluate(() => document.querySelectorAll('form').forEach((form) => (form.noValidate = true)))

export const pathOf = (page: Page) => new URL(page.url()).pathname

/**
 * Whether the element `locator` finds has focus (focus comes back a moment after a close). Each
 * look is a round trip to the browser, which on a busy machine can itself take most of a second:
 * the looks get 5 s rather than the default 1 s.
 */
export const focused = (locator: ReturnType<Page['locator']>) =>
  expect
    .poll(() => locator.evaluate((element) => element === document.activeElement), {
      timeout: 5_000,
    })
    .toBe(true)

/** A `datetime-local` value in Bishkek time (UTC+6), `ms` from now, with seconds. */
export const bishkekInput = (ms: number) =>
  new Date(Date.now() + ms + 6 * 3600_000).toISOString().slice(0, 19)

/** Puts the bot settings back as this test found them, so other test files are not disturbed. */
export async function restoreBotSettings(page: Page, settings: unknown) {
  const response = await page.request.put('/api/admin/bot-settings', { data: settings })
  expect(response.ok()).toBe(true)
}

export async function saveBotSettings(
  page: Page,
  settings: Record<string, string>,
  enabled: boolean,
) {
  const card = page.getByRole('region', { name: 'Настройки ботов' })
  const box = card.getByLabel('Боты включены')
  if ((await box.isChecked()) !== enabled) await box.click()
  for (const [label, value] of Object.entries(settings)) await card.getByLabel(label).fill(value)
  await card.getByRole('button', { name: 'Сохранить настройки' }).click()
}

export async function createAuctionInDialog(
  page: Page,
  javaScriptEnabled: boolean,
  fields: { title: string; price: string; start: string },
) {
  await page.getByRole('link', { name: 'Создать аукцион' }).click()
  const create = dialog(page, javaScriptEnabled, 'Новый аукцион')
  await create.waitFor()
  expect(pathOf(page)).toBe('/admin/auctions/new')
  await create.getByLabel('Название *').fill(fields.title)
  await create.getByLabel('Розничная цена, сом *').fill(fields.price)
  await create.getByLabel('Начало (время Бишкека) *').fill(fields.start)
  await create.getByRole('button', { name: 'Создать', exact: true }).click()
  return create
}
