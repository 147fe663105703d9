import { randomInt } from 'node:crypto'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { waitFor } from '../setup/stack.ts'
import { telegram, telegramUser } from './alert-fakes.ts'
import { call, sessionOf } from './api.ts'
import { open, setupBrowser } from './browser.ts'
import { newUser, signIn } from './people.ts'

// Runs alone: it switches "free bids need a verified phone" on, which changes what every account
// registered meanwhile gets.

// The profile's Telegram section and the setting that ties the free bids to a verified phone
// (docs/rules.md#telegram, docs/rules.md#verified-phone-and-free-bids), in the browser against
// the fake Telegram the server is configured with (tests/e2e/global-setup.ts): an admin turns the
// setting on in /admin/settings; a new person gets no free bids, links Telegram through the
// profile's one-time link, shares their number in the bot, sees it verified and the free bids
// credited, and unlinks; the admin turns the setting off again.

// The whole browser: in the headless shell the profile's redirect out to t.me never comes
// (chromium.ts).
const browser = setupBrowser({ kind: 'browser' })
const SETTING = 'Бесплатные ставки только за подтверждённый телефон'
const WAITING = 'Бесплатные ставки начисляются после подтверждения номера.'

let admin = ''
let before: Record<string, unknown> = {}

beforeAll(async () => {
  const login = await call('/api/auth/login', { body: { username: 'admin', password: 'admin123' } })
  admin = sessionOf(login.cookie)
  before = (await call('/api/admin/settings', { method: 'GET', cookie: admin })).json
  expect(before.freeBidsNeedPhone).toBe(false)
})

// Whatever happened above, the site leaves with the setting as it found it.
afterAll(async () => {
  await call('/api/admin/settings', { method: 'PUT', cookie: admin, body: before })
})

/** Switches the setting on the admin settings page, and sees it kept. */
async function setNeedPhone(page: Page, on: boolean) {
  await open(page, '/admin/settings')
  const form = page.locator('form#settings')
  await form.getByLabel(SETTING).setChecked(on)
  await form.getByRole('button', { name: 'Сохранить настройки' }).click()
  await page.getByText('Настройки сохранены').first().waitFor()
  await open(page, '/admin/settings')
  expect(await page.locator('form#settings').getByLabel(SETTING).isChecked()).toBe(on)
  const saved = await call('/api/admin/settings', { method: 'GET', cookie: admin })
  expect(saved.json.freeBidsNeedPhone).toBe(on)
}

/** Resolves once the bot has written `text` (or a message containing it) to the chat. */
const botSaid = (chatId: number, text: string) =>
  waitFor(
    `the bot to say "${text}"`,
    async () => (await telegram.sentTo(chatId)).some((message) => message.text.includes(text)),
    15_000,
  )

test('with the setting on, a person links Telegram, verifies their number, gets the free bids, and unlinks', async () => {
  const adminPage = await browser.newPage()
  await signIn(adminPage, 'admin', 'admin123')
  await setNeedPhone(adminPage, true)

  // Registered while the setting is on: no free bids until a phone is verified.
  const page = await browser.newPage()
  const name = await newUser(page, 'tg')
  await open(page, '/profile')
  const personal = page.getByRole('region', { name: 'Личная информация' })
  const section = page.getByRole('region', { name: 'Telegram' })
  await personal.getByText('0 ставок').waitFor()
  await section.getByText('Не подтверждён.', { exact: false }).waitFor()
  await section.getByText(WAITING).waitFor()

  // The profile's button answers with the bot's one-time t.me link (caught before it leaves).
  const links: string[] = []
  await page.route('https://t.me/**', (route) => {
    links.push(route.request().url())
    return route.fulfill({ status: 200, contentType: 'text/html', body: '<p>Telegram</p>' })
  })
  await section.getByRole('button', { name: 'Привязать Telegram' }).click()
  await waitFor('the t.me link', async () => links.length > 0, 15_000)
  const link = new URL(links[0]!)
  expect(`${link.origin}${link.pathname}`).toBe('https://t.me/penny_test_bot')
  const token = link.searchParams.get('start') ?? ''
  expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/)

  // Telegram delivers "/start <token>"; the link works once.
  const from = telegramUser('ru')
  expect((await telegram.text(from, `/start ${token}`)).status).toBe(200)
  await botSaid(from.id, `Готово: чат привязан к аккаунту ${name}.`)
  const stranger = telegramUser('ru')
  await telegram.text(stranger, `/start ${token}`)
  await botSaid(stranger.id, 'Эта ссылка уже использована.')
  await open(page, '/profile')
  await section.getByText('Telegram привязан.').waitFor()

  // The bot's contact button sends the person's own number (Telegram gives it without the +).
  const digits = `996700${randomInt(100_000, 1_000_000)}`
  const contact = { phone_number: digits, user_id: from.id, first_name: from.first_name }
  expect((await telegram.contact(from, contact)).status).toBe(200)
  await botSaid(from.id, `Номер +${digits} подтверждён. Вам начислено бесплатных ставок: 5.`)
  await open(page, '/profile')
  expect(await section.getByTestId('verified-phone').textContent()).toBe(`+${digits} — подтверждён`)
  await personal.getByText('5 ставок').waitFor()
  expect(await section.getByText(WAITING).count()).toBe(0)

  // Unlinking: the chat is forgotten, the verified number stays.
  await section.getByRole('button', { name: 'Отвязать' }).click()
  await page.getByText('Telegram отвязан.').first().waitFor()
  await section.getByRole('button', { name: 'Привязать Telegram' }).waitFor()
  expect(await section.getByTestId('verified-phone').textContent()).toBe(`+${digits} — подтверждён`)
  await telegram.text(from, '/balance')
  await botSaid(from.id, 'Этот чат не привязан к аккаунту')

  await setNeedPhone(adminPage, false)
})
