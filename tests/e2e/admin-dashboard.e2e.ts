import { withoutPageTexts } from './pages.ts'
import { describe, expect, test } from 'vitest'
import { open, setupBrowser, type PageOptions } from './browser.ts'
import {
  newAdminPage,
  bishkekInput,
  createAuctionInDialog,
  dialog,
  focused,
  noBrowserValidation,
  pathOf,
  restoreBotSettings,
  saveBotSettings,
} from './admin-dashboard-steps.ts'
import { uniqueName } from './people.ts'
import { startSoon, untilLive } from './auctions.ts'

// Runs alone: it turns the house bots off and on and edits the bot settings, which every auction's
// bots follow, and reads the dashboard's counts of all auctions.

// /admin, the admin dashboard, and its dialog routes (/admin/auctions/new,
// /admin/auctions/ID/edit, …), with and without JavaScript. Focus and the phone's screen:
// admin-dashboard-layout.e2e.ts.
const browser = setupBrowser()
const adminPage = (options?: PageOptions) => newAdminPage(browser, options)

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? 'js' : 'nojs'

  describe(`admin dashboard (${javaScriptEnabled ? 'JS on' : 'JS off'})`, () => {
    test('an empty title and a bad price are refused on their fields', async () => {
      const page = await adminPage({ javaScriptEnabled })
      await open(page, '/admin/auctions/new')
      const create = dialog(page, javaScriptEnabled, 'Новый аукцион')
      await create.getByLabel('Розничная цена, сом *').fill('12,345')
      await create.getByLabel('Начало (время Бишкека) *').fill(bishkekInput(3600_000))
      await noBrowserValidation(page)
      await create.getByRole('button', { name: 'Создать', exact: true }).click()
      const title = create.getByLabel('Название *')
      await create.getByText('Заполните все обязательные поля').waitFor()
      await create.getByText('Введите сумму в сомах, не больше двух знаков после запятой').waitFor()
      expect(await title.getAttribute('aria-invalid')).toBe('true')
      expect(await create.getByLabel('Розничная цена, сом *').getAttribute('aria-invalid')).toBe(
        'true',
      )
      expect(await create.getByLabel('Розничная цена, сом *').inputValue()).toBe('12,345')
      expect(pathOf(page)).toBe('/admin/auctions/new')
    })

    test('a dialog URL of the older dashboard opens its dialog route', async () => {
      const page = await adminPage({ javaScriptEnabled })
      await open(page, '/admin?create=1&page=1')
      await dialog(page, javaScriptEnabled, 'Новый аукцион').waitFor()
      expect(page.url()).toMatch(/\/admin\/auctions\/new\?page=1$/)
      await open(page, '/admin?confirm=deleteBot:no-such-bot')
      const confirm = dialog(page, javaScriptEnabled, 'Удалить бота ?')
      await confirm.getByText('Бот не найден.').waitFor()
      expect(pathOf(page)).toBe('/admin/bots/no-such-bot/delete')
      await confirm.getByRole('link', { name: 'Отмена' }).click()
      await confirm.waitFor({ state: 'detached' })
      expect(pathOf(page)).toBe('/admin')
    })

    test('bot settings out of order are refused, in place or in their own route', async () => {
      const page = await adminPage({ javaScriptEnabled })
      await open(page, '/admin')
      await saveBotSettings(page, { 'Мин. задержка, с': '5', 'Макс. задержка, с': '2' }, true)
      // With JavaScript the card posts through a fetcher and stays; without, the refusal is
      // the settings' own route, its form over the dashboard (and not twice on the page).
      const settings = page.getByRole('region', { name: 'Настройки ботов' })
      await settings.getByText('Минимальная задержка не может быть больше максимальной').waitFor()
      expect(pathOf(page)).toBe(javaScriptEnabled ? '/admin' : '/admin/bots/settings')
      expect(await page.getByLabel('Боты включены').count()).toBe(1)
      expect(await settings.getByLabel('Мин. задержка, с').inputValue()).toBe('5')
    })

    test('create, see it at home, a bot bids, end it', async () => {
      const page = await adminPage({ javaScriptEnabled })
      const botSettings: unknown = await (await page.request.get('/api/admin/bot-settings')).json()
      try {
        await open(page, '/admin')
        await page.getByRole('heading', { level: 1, name: 'Панель администратора' }).waitFor()
        await page.getByRole('link', { name: /Пользователи/ }).waitFor()
        await page.getByRole('region', { name: 'Статистика системы' }).waitFor()

        // Bots on, answering after a second; two of them keep the auction going (one bot
        // never outbids itself, so alone it would win after the 10 s timer).
        await saveBotSettings(
          page,
          { 'Мин. задержка, с': '1', 'Макс. задержка, с': '1', 'Активных ботов': '2' },
          true,
        )
        await page.getByText('Настройки ботов сохранены').first().waitFor()

        // Made an hour ahead, it starts once its bots are added (as an admin's edit of its start
        // does): a live auction without bids would end after its timer, however slow the machine.
        const title = `Лот ${uniqueName(mode)}`
        const create = await createAuctionInDialog(page, javaScriptEnabled, {
          title,
          price: '1000',
          start: bishkekInput(60 * 60 * 1000),
        })
        await page.getByText(`Аукцион «${title}» создан`).first().waitFor()
        await create.waitFor({ state: 'detached' })

        const home = await browser.newPage({ javaScriptEnabled })
        await open(home, '/')
        await home.getByText(title).first().waitFor()

        // Assign two seeded bots in the edit dialog (one bot alone never outbids itself and would
        // let it end); the same bot a second time is refused.
        const row = page.getByRole('row').filter({ hasText: title })
        const href = await row.getByRole('link', { name: title, exact: true }).getAttribute('href')
        await row.getByRole('link', { name: `Изменить аукцион ${title}` }).click()
        const edit = dialog(page, javaScriptEnabled, `Редактирование аукциона «${title}»`)
        await edit.waitFor()
        const editPath = pathOf(page)
        expect(editPath).toMatch(/^\/admin\/auctions\/[^/]+\/edit$/)
        const bot = 'bot_azamat_1 (Азамат Токтогулов)'
        await edit.getByLabel('Бот', { exact: true }).selectOption({ label: bot })
        await edit.getByRole('button', { name: 'Добавить бота' }).click()
        await page.getByText('Бот bot_azamat_1 добавлен к аукциону').first().waitFor()
        await edit.getByRole('button', { name: 'Убрать бота bot_azamat_1 из аукциона' }).waitFor()
        await edit
          .getByLabel('Бот', { exact: true })
          .selectOption({ label: 'bot_aigerim_2 (Айгерим Садыкова)' })
        await edit.getByRole('button', { name: 'Добавить бота' }).click()
        await page.getByText('Бот bot_aigerim_2 добавлен к аукциону').first().waitFor()
        expect(pathOf(page)).toBe(editPath)
        await edit
          .getByLabel('Бот', { exact: true })
          .selectOption({ label: `${bot} — уже добавлен` })
        await edit.getByRole('button', { name: 'Добавить бота' }).click()
        await edit.getByText('Этот бот уже добавлен к аукциону').waitFor()
        // Refused without JavaScript: the same dialog, as the route that refused.
        expect(pathOf(page)).toBe(
          javaScriptEnabled ? editPath : editPath.replace(/\/edit$/, '/assign'),
        )

        await startSoon(editPath.split('/')[3]!)
        // The bot bids once the auction is live: with JavaScript the page hears of it, without
        // it the live page refreshes itself every 5 s (a reload of ours beside that refresh
        // would be aborted by it).
        await untilLive(editPath.split('/')[3]!, 30_000)
        const auction = await browser.newPage({ javaScriptEnabled })
        await open(auction, href!)
        await auction.getByText('bot_azamat_1').first().waitFor({ timeout: 30_000 })

        // End it from the table, after a confirmation.
        await open(page, '/admin')
        await page
          .getByRole('row')
          .filter({ hasText: title })
          .getByRole('link', { name: `Завершить аукцион ${title}` })
          .click()
        const confirm = dialog(page, javaScriptEnabled, `Завершить аукцион «${title}»?`)
        await confirm.getByText('победителем станет последний').waitFor()
        expect(pathOf(page)).toMatch(/^\/admin\/auctions\/[^/]+\/end$/)
        await confirm.getByRole('button', { name: 'Да, завершить' }).click()
        await page.getByText(`Аукцион «${title}» завершён`).first().waitFor()
        expect(await page.getByRole('row').filter({ hasText: title }).count()).toBe(0)
        expect(pathOf(page)).toBe('/admin')
        // Its row (and the link that opened the dialog) is gone: focus goes to the table's heading.
        if (javaScriptEnabled) await focused(page.locator('#auctions-heading'))
        // With JavaScript the page is read again; without, its own refresh brings the end.
        if (javaScriptEnabled) await auction.reload()
        await auction.getByText('Завершён').first().waitFor({ timeout: 15_000 })
      } finally {
        await restoreBotSettings(page, botSettings)
      }
    }, 120_000)

    test('delete an upcoming auction (prebids refunded); create and delete a bot', async () => {
      const page = await adminPage({ javaScriptEnabled })
      await open(page, '/admin')
      const title = `Пакет ${uniqueName(mode)}`
      await createAuctionInDialog(page, javaScriptEnabled, {
        title,
        price: '750',
        start: bishkekInput(24 * 3600_000),
      })
      await page.getByText(`Аукцион «${title}» создан`).first().waitFor()

      // A bot added and taken off again, from the edit dialog, which stays open.
      const row = page.getByRole('row').filter({ hasText: title })
      await row.getByRole('link', { name: `Изменить аукцион ${title}` }).click()
      const edit = dialog(page, javaScriptEnabled, `Редактирование аукциона «${title}»`)
      await edit.waitFor()
      const editPath = pathOf(page)
      await edit
        .getByLabel('Бот', { exact: true })
        .selectOption({ label: 'bot_aigerim_2 (Айгерим Садыкова)' })
      await edit.getByRole('button', { name: 'Добавить бота' }).click()
      const remove = edit.getByRole('button', { name: 'Убрать бота bot_aigerim_2 из аукциона' })
      await remove.click()
      await page.getByText('Бот bot_aigerim_2 убран из аукциона').first().waitFor()
      await edit.getByText('К аукциону не добавлено ни одного бота.').waitFor()
      expect(pathOf(page)).toBe(editPath)
      await edit.getByRole('link', { name: 'Отмена' }).click()
      await edit.waitFor({ state: 'detached' })

      await row.getByRole('link', { name: `Удалить аукцион ${title}` }).click()
      const confirm = dialog(page, javaScriptEnabled, `Удалить аукцион «${title}»?`)
      await confirm.getByText('вернутся участникам на баланс').waitFor()
      await confirm.getByRole('button', { name: 'Да, удалить' }).click()
      await page.getByText(`Аукцион «${title}» удалён`).first().waitFor()
      expect(await page.getByRole('row').filter({ hasText: title }).count()).toBe(0)

      // Bots: names are required; the username is generated. Without JavaScript the refusal is
      // the form's own route, /admin/bots/new, the form in a section over the dashboard.
      const bots = page.getByRole('region', { name: 'Боты', exact: true })
      await noBrowserValidation(page)
      await bots.getByRole('button', { name: 'Создать бота' }).click()
      const newBot = javaScriptEnabled ? bots : dialog(page, false, 'Новый бот')
      await newBot.getByText('Заполните имя и фамилию бота').first().waitFor()
      expect(pathOf(page)).toBe(javaScriptEnabled ? '/admin' : '/admin/bots/new')
      expect(await page.getByLabel('Имя бота *').count()).toBe(1)
      await newBot.getByLabel('Имя бота *').fill('Эрмек')
      await newBot.getByLabel('Фамилия бота *').fill('Асанов')
      await newBot.getByRole('button', { name: 'Создать бота' }).click()
      const created = page.getByText(/^Бот ermeka\d+ создан$/).first()
      await created.waitFor()
      const name = (await created.textContent())!.split(' ')[1]!
      await page.getByRole('link', { name: `Удалить бота ${name}` }).click()
      const confirmBot = dialog(page, javaScriptEnabled, `Удалить бота ${name}?`)
      await confirmBot.getByRole('button', { name: 'Да, удалить' }).click()
      await page.getByText(`Бот ${name} удалён`).first().waitFor()
      expect(await page.getByRole('link', { name: `Удалить бота ${name}` }).count()).toBe(0)
      if (javaScriptEnabled) await focused(page.locator('#bots-heading'))
    }, 120_000)

    test('a form of the dashboard before its dialogs had routes gets 400, not a guess', async () => {
      const page = await adminPage({ javaScriptEnabled })
      for (const url of ['/admin?index', '/admin']) {
        const answer = await page.request.post(url, {
          form: { intent: 'deleteBot', id: 'no-such-bot' },
          headers: { 'Accept-Language': 'ru' },
        })
        expect(answer.status()).toBe(400)
        expect(withoutPageTexts(await answer.text())).toContain(
          'Эта форма устарела: обновите страницу',
        )
      }
    })
  })
}
