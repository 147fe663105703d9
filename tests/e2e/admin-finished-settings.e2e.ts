import { randomBytes } from 'node:crypto'
import { PrismaPg } from '@prisma/adapter-pg'
import type { Page } from 'playwright-core'
import { afterAll, describe, expect, inject, test } from 'vitest'
import { PrismaClient } from '../../prisma/generated/client.ts'
import type { FinishedRow } from '../../app/components/admin/finished-table.tsx'
import { slugify } from '../../app/utils/slug.ts'
import { open, phone, screenshot, setupBrowser } from './browser.ts'
import { signIn } from './people.ts'

// Runs alone: it saves the site settings every page shows, and expects its finished auction to be
// the newest of all.

// /admin/finished-auctions and /admin/settings (docs/rules.md#admin-finished-auctions,
// #admin-settings), with and without JavaScript.
const browser = setupBrowser()

let prisma: PrismaClient | undefined
afterAll(async () => prisma?.$disconnect())

/** A finished auction straight in the server's database, newest of all. */
async function createFinished(title: string) {
  prisma ??= new PrismaClient({
    adapter: new PrismaPg({ connectionString: inject('e2eDatabaseUrl') }),
  })
  const displayId = `F${randomBytes(3).toString('hex').toUpperCase()}`
  const now = Date.now()
  return prisma.auction.create({
    data: {
      displayId,
      slug: slugify(title, displayId),
      title,
      description: 'Лот для проверки удаления.',
      retailPrice: 1_000_00,
      currentPrice: 0,
      finalPrice: 0,
      status: 'finished',
      startTime: new Date(now - 60_000),
      endTime: new Date(now),
    },
    select: { id: true, title: true },
  })
}

/** A UrlDialog: a dialog with JavaScript, a section (region) of the page without. */
const dialog = (page: Page, javaScriptEnabled: boolean, name: string) =>
  page.getByRole(javaScriptEnabled ? 'dialog' : 'region', { name })

/** Leaves the browser's own constraint checks out so the server's answer is what is tested. */
const noBrowserValidation = (page: Page) =>
  page.evaluate(() => document.querySelectorAll('form').forEach((form) => (form.noValidate = true)))

const money = (som: number) =>
  `${new Intl.NumberFormat('ru-RU', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(som)} сом`
/** Intl's group separator is a narrow no-break space; compare texts with plain spaces. */
const plain = (text: string | null) => (text ?? '').replace(/\s/g, ' ').trim()

/** The finished-auctions call answers the rows the page shows. */
type FinishedJson = { auctions: FinishedRow[] }

const SAMSUNG = 'Samsung Galaxy A55 8/256 ГБ'

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? 'js' : 'nojs'

  describe(`admin finished auctions and settings (${javaScriptEnabled ? 'JS on' : 'JS off'})`, () => {
    test('the list: seeded results with savings, the stats dialog, delete', async () => {
      const page = await browser.newPage({ javaScriptEnabled })
      await signIn(page, 'admin', 'admin123')
      const own = await createFinished(`Удаляемый лот ${mode} ${Date.now().toString(36)}`)
      await open(page, '/admin/finished-auctions')
      await page.getByRole('heading', { level: 1, name: 'Завершённые аукционы' }).waitFor()
      await page.getByRole('link', { name: 'Назад в админ-панель' }).waitFor()

      const api = (await (
        await page.request.get('/api/admin/finished-auctions')
      ).json()) as FinishedJson
      const samsung = api.auctions.find((a) => a.title === SAMSUNG)!
      // The Auction entity's winner: an object with the person's names and role.
      expect(samsung.winner).toEqual({
        username: 'nurlan',
        firstName: 'Нурлан',
        lastName: 'Абдыраев',
        role: 'user',
      })
      expect(samsung.winnerBotName).toBeNull()
      const row = page.getByRole('row').filter({ hasText: SAMSUNG })
      expect(await row.count()).toBe(1)
      const text = plain(await row.textContent())
      expect(text).toContain(plain(money(samsung.finalPrice)))
      expect(text).toContain(plain(money(samsung.savings)))
      expect(text).toMatch(/\d+(,\d+)?%/)
      expect(text).toContain('nurlan')
      expect(plain(await row.locator('s').textContent())).toBe(plain(money(samsung.retailPrice)))
      // Without bids there is no winner (the auction made just now: the seeded ones may be on a
      // later page once other test files have finished auctions of their own).
      await page.getByRole('row').filter({ hasText: own.title }).getByText('Неизвестно').waitFor()
      // Newest first: the auction made just now comes before the seeded one that ended an hour
      // ago (other test files may finish auctions in between, so not necessarily first).
      const rows = await page.locator('tbody tr').allTextContents()
      const at = (title: string) => rows.findIndex((text) => text.includes(title))
      expect(at(own.title)).toBeGreaterThanOrEqual(0)
      expect(at(own.title)).toBeLessThan(at(SAMSUNG))
      await screenshot(page, `admin-finished-${mode}`)

      // Statistics: the numbers the API gives.
      await row.getByRole('link', { name: `Статистика аукциона «${SAMSUNG}»` }).click()
      const stats = dialog(page, javaScriptEnabled, `Статистика: ${SAMSUNG}`)
      await stats.waitFor()
      const expected = (await (
        await page.request.get(`/api/admin/auction-stats/${samsung.id}`)
      ).json()) as Record<string, number>
      const value = (label: string) =>
        stats.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd')
      expect(await value('Всего ставок').textContent()).toBe(String(expected.totalBids))
      expect(await value('Ставки пользователей').textContent()).toBe(String(expected.userBids))
      expect(await value('Ставки площадки (боты)').textContent()).toBe(String(expected.botBids))
      expect(await value('Ставки администраторов').textContent()).toBe(String(expected.adminBids))
      expect(await value('Уникальных участников').textContent()).toBe(
        String(expected.uniqueParticipants),
      )
      expect(expected.totalBids).toBeGreaterThan(0)
      expect(await stats.locator('tbody tr').count()).toBe(expected.totalBids)
      expect(await stats.getByText('ставка площадки').count()).toBe(expected.botBids)
      await screenshot(page, `admin-finished-stats-${mode}`)
      if (javaScriptEnabled) await stats.getByRole('button', { name: 'Закрыть' }).click()
      else await stats.getByRole('link', { name: 'Закрыть' }).click()
      await stats.waitFor({ state: 'detached' })

      // Delete, after a confirmation.
      await page
        .getByRole('row')
        .filter({ hasText: own.title })
        .getByRole('link', { name: `Удалить аукцион «${own.title}»` })
        .click()
      const confirm = dialog(page, javaScriptEnabled, `Удалить аукцион «${own.title}»?`)
      await confirm.getByText('будут удалены без возможности восстановления').waitFor()
      await confirm.getByRole('button', { name: 'Удалить' }).click()
      await page.getByText(`Аукцион «${own.title}» удалён`).first().waitFor()
      await confirm.waitFor({ state: 'detached' })
      expect(new URL(page.url()).searchParams.has('confirm')).toBe(false)
      expect(await page.getByRole('row').filter({ hasText: own.title }).count()).toBe(0)
      expect(await page.getByRole('row').filter({ hasText: SAMSUNG }).count()).toBe(1)

      // A stale confirmation (deleted meanwhile) answers with the form's error, not a 500.
      await open(page, `/admin/finished-auctions?confirm=delete:${own.id}`)
      const stale = dialog(page, javaScriptEnabled, 'Удалить аукцион?')
      await stale.getByText('Аукцион не найден: возможно, он уже удалён.').waitFor()
      await stale.getByRole('button', { name: 'Удалить' }).click()
      await stale.getByRole('alert').filter({ hasText: 'Аукцион не найден' }).waitFor()
    })

    test('settings: a bad email is refused; the site name shows in the footer', async () => {
      const page = await browser.newPage({ javaScriptEnabled })
      await signIn(page, 'admin', 'admin123')
      await open(page, '/admin/settings')
      await page.getByRole('heading', { level: 1, name: 'Настройки системы' }).waitFor()
      await page.getByRole('link', { name: 'Назад в админ-панель' }).waitFor()
      const form = page.locator('form#settings')
      const siteName = form.getByLabel('Название сайта *')
      const original = await siteName.inputValue()
      const originalEmail = await form.getByLabel('Email').inputValue()
      expect(original).not.toBe('')
      expect(await form.getByLabel('Показывать ставки площадки').isChecked()).toBe(true)
      await form.getByText('ArrowOutlet').waitFor()

      if (javaScriptEnabled) {
        // Choosing a currency fills in its symbol.
        await form.getByLabel('Валюта *').selectOption('доллар')
        expect(await form.getByLabel('Символ валюты *').inputValue()).toBe('$')
        await form.getByLabel('Валюта *').selectOption('сом')
        expect(await form.getByLabel('Символ валюты *').inputValue()).toBe('сом')
      }

      // A bad email: its field error, nothing saved, the typed values kept.
      const renamed = `Сайт ${mode} ${Date.now().toString(36)}`
      await siteName.fill(renamed)
      await form.getByLabel('Email').fill('not-an-email')
      await noBrowserValidation(page)
      await form.getByRole('button', { name: 'Сохранить настройки' }).click()
      await form.getByText('Неверный email').waitFor()
      expect(await form.getByLabel('Email').getAttribute('aria-invalid')).toBe('true')
      expect(await siteName.inputValue()).toBe(renamed)
      expect(await page.locator('footer').getByText(renamed).count()).toBe(0)

      // A good save: the footer shows the new name; house bids can be switched off.
      await form.getByLabel('Email').fill('Help@Auction.example.KG')
      await form.getByLabel('Показывать ставки площадки').uncheck()
      await form.getByRole('button', { name: 'Сохранить настройки' }).click()
      await page.getByText('Настройки сохранены').first().waitFor()
      await page.locator('footer').getByText(renamed, { exact: true }).waitFor()
      await page.reload()
      expect(await form.getByLabel('Email').inputValue()).toBe('help@auction.example.kg')
      expect(await form.getByLabel('Показывать ставки площадки').isChecked()).toBe(false)
      await screenshot(page, `admin-settings-${mode}`)

      // Restore.
      await siteName.fill(original)
      await form.getByLabel('Email').fill(originalEmail)
      await form.getByLabel('Показывать ставки площадки').check()
      await form.getByRole('button', { name: 'Сохранить настройки' }).click()
      await page.locator('footer').getByText(original, { exact: true }).first().waitFor()
      await page.reload()
      expect(await siteName.inputValue()).toBe(original)
      expect(await form.getByLabel('Email').inputValue()).toBe(originalEmail)
      expect(await form.getByLabel('Показывать ставки площадки').isChecked()).toBe(true)
    })
  })
}

test('on a phone both pages and the stats dialog fit the screen', async () => {
  const page = await browser.newPage({ ...phone, consented: true })
  await signIn(page, 'admin', 'admin123')
  const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)
  await open(page, '/admin/finished-auctions')
  await page.getByRole('heading', { level: 1 }).waitFor()
  expect(await fits()).toBe(true)
  await screenshot(page, 'admin-finished-phone')
  await page.getByRole('link', { name: `Статистика аукциона «${SAMSUNG}»` }).click()
  await page.getByRole('dialog').waitFor()
  await screenshot(page, 'admin-finished-phone-stats')
  await open(page, '/admin/settings')
  await page.getByRole('heading', { level: 1 }).waitFor()
  expect(await fits()).toBe(true)
  await screenshot(page, 'admin-settings-phone')
})
