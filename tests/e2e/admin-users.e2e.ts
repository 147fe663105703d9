import type { Page } from 'playwright-core'
import { describe, expect, test } from 'vitest'
import { newAccount } from './api.ts'
import { createAuction, createOrder, e2eDatabase } from './auctions.ts'
import { open, phone, screenshot, setupBrowser } from './browser.ts'
import { buyPackage, webhook } from './payments.ts'
import { newUser, signIn } from './people.ts'

// /admin/users (docs/rules.md#admin-users), with and without JavaScript.
const browser = setupBrowser()

/** Accounts straight in the server's database (registering this many would hit its rate limit). */
async function createUsers(prefix: string, count: number) {
  await e2eDatabase().user.createMany({
    data: Array.from({ length: count }, (_, i) => ({
      username: `${prefix}${String(i).padStart(2, '0')}`,
      email: `${prefix}${i}@mail.kg`,
    })),
  })
}

/** A UrlDialog: a dialog with JavaScript, a section (region) of the page without. */
const dialog = (page: Page, javaScriptEnabled: boolean, name: string | RegExp) =>
  page.getByRole(javaScriptEnabled ? 'dialog' : 'region', { name })

/** Leaves the browser's own constraint checks out so the server's answer is what is tested. */
const noBrowserValidation = (page: Page) =>
  page.evaluate(() => document.querySelectorAll('form').forEach((form) => (form.noValidate = true)))

async function searchFor(page: Page, term: string) {
  await page.getByLabel('Поиск пользователей').fill(term)
  await page.getByRole('button', { name: 'Найти' }).click()
  await page.waitForURL((url) => url.searchParams.get('search') === term)
}

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? 'js' : 'nojs'

  describe(`admin users (${javaScriptEnabled ? 'JS on' : 'JS off'})`, () => {
    test('search, edit (field error, balance +72 to 77), activity, delete', async () => {
      const person = await browser.newPage({ javaScriptEnabled })
      const name = await newUser(person, `${mode}au`)

      const page = await browser.newPage({ javaScriptEnabled })
      await signIn(page, 'admin', 'admin123')
      await open(page, '/admin/users')
      await page.getByRole('heading', { level: 1, name: 'Управление пользователями' }).waitFor()
      await page.getByText('Зарегистрировано сегодня').waitFor()
      await page.getByRole('link', { name: 'Назад в админ-панель' }).waitFor()

      await searchFor(page, name)
      await page.getByText(`По запросу «${name}» найден 1 пользователь`).waitFor()
      const row = page.getByRole('row').filter({ hasText: name })
      expect(await row.count()).toBe(1)
      await row.getByRole('cell', { name: '5', exact: true }).waitFor()
      await screenshot(page, `admin-users-${mode}`)

      // Edit: a bad phone is refused with its field error, nothing is saved.
      await row.getByRole('link', { name: `Изменить пользователя ${name}` }).click()
      const edit = dialog(page, javaScriptEnabled, `Редактирование пользователя ${name}`)
      await edit.getByText('Сейчас на балансе 5 ставок').waitFor()
      await edit.getByLabel('Изменить на (+/−)').fill('+72')
      await edit.getByLabel('Причина изменения').fill('Подарок')
      await edit.getByLabel('Телефон').fill('+99655')
      await noBrowserValidation(page)
      await edit.getByRole('button', { name: 'Сохранить' }).click()
      await edit.getByText('Введите номер в формате +996XXXXXXXXX').waitFor()
      expect(await edit.getByLabel('Изменить на (+/−)').inputValue()).toBe('+72')

      await edit.getByLabel('Телефон').fill('')
      await edit.getByLabel('Имя', { exact: true }).fill('Айгуль')
      await edit.getByRole('button', { name: 'Сохранить' }).click()
      await page.getByText(`Пользователь ${name} обновлён`).first().waitFor()
      await edit.waitFor({ state: 'detached' })
      expect(new URL(page.url()).searchParams.get('search')).toBe(name)
      await row.getByRole('cell', { name: '77', exact: true }).waitFor()
      await row.getByText('Айгуль').waitFor()

      // The person sees the new balance in their own header when they open a page.
      await open(person, '/')
      await person.locator('header').getByText('77 ставок').first().waitFor()

      // Activity: three parts, each with its empty state.
      await row.getByRole('link', { name: `Активность пользователя ${name}` }).click()
      const activity = dialog(page, javaScriptEnabled, `Активность пользователя ${name}`)
      await activity.getByRole('heading', { name: /Выигранные аукционы/ }).waitFor()
      await activity.getByText('Пользователь ещё не выиграл ни одного аукциона.').waitFor()
      await activity.getByText('Пользователь ещё не делал ставок.').waitFor()
      await activity.getByText('Предварительных ставок нет.').waitFor()
      if (javaScriptEnabled) await activity.getByRole('button', { name: 'Закрыть' }).click()
      else await activity.getByRole('link', { name: 'Закрыть' }).click()
      await activity.waitFor({ state: 'detached' })

      // Delete, after a confirmation that says what stays.
      await row.getByRole('link', { name: `Удалить пользователя ${name}` }).click()
      const confirm = dialog(page, javaScriptEnabled, `Удалить пользователя ${name}?`)
      await confirm.getByText('останутся в аукционах, но без имени').waitFor()
      await confirm.getByRole('button', { name: 'Да, удалить' }).click()
      await page.getByText(`Пользователь ${name} удалён`).first().waitFor()
      await page.getByText(`По запросу «${name}» никого не нашлось.`).waitFor()
      expect(await page.getByRole('row').filter({ hasText: name }).count()).toBe(0)
    })

    test('an account with a paid order is not deleted: the page says why', async () => {
      const person = await newAccount()
      const lot = await createAuction({ title: `Заказ ${person.name}`, startsInMs: 3_600_000 })
      const order = await createOrder(person.id, lot.id)
      await e2eDatabase().order.update({
        where: { id: order.id },
        data: { status: 'paid', paidAt: new Date() },
      })
      const page = await browser.newPage({ javaScriptEnabled })
      await signIn(page, 'admin', 'admin123')
      await open(page, '/admin/users')
      await searchFor(page, person.name)
      const row = page.getByRole('row').filter({ hasText: person.name })
      await row.getByRole('link', { name: `Удалить пользователя ${person.name}` }).click()
      const confirm = dialog(page, javaScriptEnabled, `Удалить пользователя ${person.name}?`)
      await confirm.getByText('Пользователя с оплаченными заказами').waitFor()
      await confirm.getByRole('button', { name: 'Да, удалить' }).click()
      await page
        .getByText(
          'У этого пользователя есть оплаченные заказы или платёж в обработке: удалить его нельзя, чтобы деньги и товар не потерялись',
        )
        .first()
        .waitFor()
      expect(await e2eDatabase().user.count({ where: { id: person.id } })).toBe(1)
      expect(await e2eDatabase().order.count({ where: { id: order.id } })).toBe(1)
    })

    test('balance: a reason is required, a debit below 0 is refused, bids bought meanwhile stay', async () => {
      const person = await newAccount()
      const page = await browser.newPage({ javaScriptEnabled })
      await signIn(page, 'admin', 'admin123')
      await open(page, `/admin/users?search=${person.name}&edit=${person.id}`)
      const edit = dialog(page, javaScriptEnabled, `Редактирование пользователя ${person.name}`)
      await edit.getByText('Сейчас на балансе 5 ставок').waitFor()
      await noBrowserValidation(page)
      const delta = edit.getByLabel('Изменить на (+/−)')
      const save = edit.getByRole('button', { name: 'Сохранить' })

      // No reason: said at the reason field.
      await delta.fill('-6')
      await save.click()
      await edit.getByText('Укажите причину изменения баланса').waitFor()

      // A debit below 0: said at the change's field; the name typed with it is not saved either.
      await edit.getByLabel('Причина изменения').fill('Списание')
      await edit.getByLabel('Имя', { exact: true }).fill('Нурлан')
      await save.click()
      await edit
        .getByText(
          'Нельзя списать больше ставок, чем есть на балансе: он не может стать меньше 0. Ничего не сохранено',
        )
        .waitFor()
      expect(await delta.getAttribute('aria-invalid')).toBe('true')
      // Postgres holds the registration's 5 free bids once the outbox has written them.
      const stored = () => e2eDatabase().user.findUniqueOrThrow({ where: { id: person.id } })
      await expect.poll(async () => (await stored()).bidBalance, { timeout: 10_000 }).toBe(5)
      expect(await stored()).toMatchObject({ firstName: null, bidBalance: 5 })

      // The person buys 50 bids while the form is open; the admin's +10 comes on top: 65.
      expect((await webhook({ payment_id: await buyPackage(person.cookie) })).status).toBe(200)
      await delta.fill('+10')
      await edit.getByLabel('Причина изменения').fill('Компенсация')
      await edit.getByLabel('Имя', { exact: true }).fill('')
      await save.click()
      await page.getByText(`Пользователь ${person.name} обновлён`).first().waitFor()
      await edit.waitFor({ state: 'detached' })
      const row = page.getByRole('row').filter({ hasText: person.name })
      await row.getByRole('cell', { name: '65', exact: true }).waitFor()
    })

    test('12 found users page 10 + 2, the search kept', async () => {
      const prefix = `pg${mode}${Date.now().toString(36)}`
      await createUsers(prefix, 12)
      const page = await browser.newPage({ javaScriptEnabled })
      await signIn(page, 'admin', 'admin123')
      await open(page, '/admin/users')
      await searchFor(page, prefix)
      await page.getByText(`По запросу «${prefix}» найдено 12 пользователей`).waitFor()
      const rows = page.locator('tbody tr')
      expect(await rows.count()).toBe(10)
      await page
        .getByRole('navigation', { name: 'Страницы' })
        .getByRole('link', { name: 'Вперёд' })
        .click()
      await page.waitForURL((url) => url.searchParams.get('page') === '2')
      expect(new URL(page.url()).searchParams.get('search')).toBe(prefix)
      // With JavaScript the address changes a moment before page 2's rows replace page 1's.
      await expect.poll(() => page.locator('tbody tr').count(), { timeout: 10_000 }).toBe(2)
      // A dialog opened on page 2 closes back to page 2 of the same search.
      await page
        .locator('tbody tr')
        .first()
        .getByRole('link', { name: /^Активность/ })
        .click()
      await page.waitForURL((url) => url.pathname.endsWith('/activity'))
      expect(new URL(page.url()).searchParams.get('page')).toBe('2')
      expect(new URL(page.url()).searchParams.get('search')).toBe(prefix)
      const activity = dialog(page, javaScriptEnabled, /^Активность пользователя/)
      await activity.getByText('Предварительных ставок нет.').waitFor()
      if (javaScriptEnabled) await page.keyboard.press('Escape')
      else await activity.getByRole('link', { name: 'Закрыть' }).click()
      await activity.waitFor({ state: 'detached' })
      expect(new URL(page.url()).searchParams.get('page')).toBe('2')
      expect(new URL(page.url()).searchParams.get('search')).toBe(prefix)
      expect(new URL(page.url()).pathname).toBe('/admin/users')
      await page.getByRole('link', { name: 'Очистить поиск' }).click()
      await page.waitForURL((url) => url.search === '')
    })

    test('an admin cannot take away their own admin role', async () => {
      const page = await browser.newPage({ javaScriptEnabled })
      await signIn(page, 'admin', 'admin123')
      await open(page, '/admin/users?search=admin')
      const row = page.getByRole('row').filter({ hasText: 'это вы' })
      await row.getByRole('link', { name: 'Изменить пользователя admin' }).click()
      const edit = dialog(page, javaScriptEnabled, 'Редактирование пользователя admin')
      await edit.getByLabel('Роль').selectOption('user')
      await edit.getByRole('button', { name: 'Сохранить' }).click()
      await edit.getByText('Нельзя снять роль администратора с самого себя').waitFor()
      // Nobody offers to delete themself.
      expect(await row.getByRole('link', { name: /Удалить/ }).count()).toBe(0)
    })
  })
}

test('on a phone the page and its dialogs fit the screen', async () => {
  const page = await browser.newPage({ ...phone, consented: true })
  await signIn(page, 'admin', 'admin123')
  await open(page, '/admin/users?search=admin')
  await page.getByRole('heading', { level: 1 }).waitFor()
  const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)
  expect(await fits()).toBe(true)
  await screenshot(page, 'admin-users-phone')
  await page.getByRole('link', { name: 'Изменить пользователя admin' }).click()
  await page.getByRole('dialog').waitFor()
  await screenshot(page, 'admin-users-phone-edit')
  await page.getByRole('dialog').getByRole('link', { name: 'Отмена' }).click()
  await page.getByRole('link', { name: 'Активность пользователя admin' }).click()
  await page.getByRole('dialog').getByText('Предварительных ставок нет.').waitFor()
  await screenshot(page, 'admin-users-phone-activity')
})
