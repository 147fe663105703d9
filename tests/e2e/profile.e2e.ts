import { describe, expect, test } from 'vitest'
import { artifacts, open, phone, screenshot, setupBrowser } from './browser.ts'
import { newUser, signIn } from './people.ts'

// /profile and /bid-history (docs/rules.md#profile-and-bid-history-pages), with and without JavaScript.
const browser = setupBrowser()

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? 'js' : 'nojs'

  describe(`profile and bid history (${javaScriptEnabled ? 'JS on' : 'JS off'})`, () => {
    test('not logged in: "login required" with a way home or back', async () => {
      const page = await browser.newPage({ javaScriptEnabled })
      const response = await open(page, '/profile')
      expect(response?.status()).toBe(401)
      await page.getByRole('heading', { name: 'Требуется вход в систему' }).waitFor()
      await page.getByRole('main').getByRole('link', { name: 'На главную' }).waitFor()
      await open(page, '/bid-history')
      await page.getByRole('heading', { name: 'Требуется вход в систему' }).waitFor()
      const back = javaScriptEnabled
        ? page.getByRole('main').getByRole('button', { name: 'Назад' })
        : page.getByRole('main').getByRole('link', { name: 'Назад' })
      await back.waitFor()
      await page.getByRole('main').getByRole('link', { name: 'Войти' }).click()
      await page.waitForURL((url) => url.pathname === '/login')
      expect(new URL(page.url()).searchParams.get('redirectTo')).toBe('/bid-history')
    })

    test('profile: view, edit with a bad phone (field error), save, cancel', async () => {
      const page = await browser.newPage({ javaScriptEnabled })
      const name = await newUser(page, mode)
      await open(page, '/profile')
      const personal = page.getByRole('region', { name: 'Личная информация' })
      await personal.getByText(name, { exact: true }).waitFor()
      await personal.getByText('5 ставок').waitFor()
      await page.getByText('Вы пока ничего не выиграли. Всё впереди!').waitFor()
      await page.getByText('Вы ещё не делали ставок.').waitFor()

      await personal.getByRole('link', { name: 'Редактировать' }).click()
      const form = personal.locator('form[action="/profile"]')
      await form.getByLabel('Имя *').fill('Нурлан')
      await form.getByLabel('Фамилия *').fill('Асанов')
      await form.getByLabel('Телефон').fill('+99655')
      // Without JS the browser's own pattern check would stop the post; the server's answer
      // is what is tested here.
      await page.evaluate(() =>
        document.querySelectorAll('form').forEach((f) => (f.noValidate = true)),
      )
      await form.getByRole('button', { name: 'Сохранить' }).click()
      await form.getByText('Введите номер в формате +996XXXXXXXXX').waitFor()
      // Nothing was saved; the typed names are still in the form.
      expect(await form.getByLabel('Имя *').inputValue()).toBe('Нурлан')

      const number = `+99677${String(Date.now()).slice(-7)}`
      await form.getByLabel('Телефон').fill(number)
      await form.getByLabel('Дата рождения').fill('1990-02-03')
      await form.getByLabel('Пол').selectOption('male')
      await form.getByRole('button', { name: 'Сохранить' }).click()
      await page.getByText('Профиль обновлен').first().waitFor()
      await personal.getByText('Асанов').waitFor()
      await personal.getByText(number).waitFor()
      await personal.getByText('03.02.1990').waitFor()
      await personal.getByText('Мужской').waitFor()

      await personal.getByRole('link', { name: 'Редактировать' }).click()
      await form.getByLabel('Имя *').fill('Другое')
      await form.getByRole('link', { name: 'Отмена' }).click()
      await personal.getByText('Нурлан').waitFor()
      expect(await personal.getByText('Другое').count()).toBe(0)
      await screenshot(page, `profile-${mode}`)
    })

    test('log out on all devices: this browser goes to /login, and another one is logged out too', async () => {
      const page = await browser.newPage({ javaScriptEnabled })
      const name = await newUser(page, `${mode}all`)
      const elsewhere = await browser.newPage({ javaScriptEnabled: false })
      await signIn(elsewhere, name)
      await open(page, '/profile')
      await page
        .getByRole('region', { name: 'Сеансы' })
        .getByRole('button', { name: 'Выйти на всех устройствах' })
        .click()
      await page.waitForURL((url) => url.pathname === '/login')
      await page.getByText('Вы вышли из аккаунта на всех устройствах').first().waitFor()
      expect((await open(page, '/profile'))?.status()).toBe(401)
      expect((await open(elsewhere, '/profile'))?.status()).toBe(401)
    })

    test('bid history renders its cards and empty states', async () => {
      const page = await browser.newPage({ javaScriptEnabled, ...phone })
      await newUser(page, `${mode}bh`)
      await open(page, '/bid-history')
      await page.getByRole('heading', { name: 'История ставок', level: 1 }).waitFor()
      await page.getByText('Нет ставок в идущих аукционах.').waitFor()
      await page.getByText('У вас нет предварительных ставок.').waitFor()
      const stats = page.getByRole('region', { name: 'Статистика' })
      await stats.getByText('Всего ставок').waitFor()
      // The phone layout does not scroll sideways.
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      )
      expect(overflow).toBeLessThanOrEqual(0)
      await screenshot(page, `bid-history-${mode}`)
    })

    test('limits on a phone: a daily limit, a break, its end waiting 24 hours', async () => {
      const page = await browser.newPage({ javaScriptEnabled, ...phone })
      await newUser(page, `${mode}lim`)
      await open(page, '/profile')
      const limits = page.getByRole('region', { name: 'Ваши лимиты' })
      await limits.getByLabel('Ставок в день (пусто — без лимита)').fill('3')
      await limits.getByRole('button', { name: 'Сохранить лимит' }).click()
      await page.getByText('Лимиты сохранены и уже действуют', { exact: true }).waitFor()
      await limits.getByText('сегодня 0 из 3').waitFor()
      await limits.getByLabel('Взять перерыв на').selectOption('1')
      await limits.getByRole('button', { name: 'Начать перерыв' }).click()
      const end = limits.getByRole('button', { name: 'Закончить перерыв (через 24 часа)' })
      await end.click()
      await page
        .getByText('Сохранено: изменение вступит в силу через 24 часа', { exact: true })
        .waitFor()
      await limits.getByText(/вступит в силу: дневной лимит — 3, перерыв — нет/).waitFor()
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      )
      expect(overflow).toBeLessThanOrEqual(0)
      await limits.screenshot({ path: `${artifacts}/limits-${mode}.png` })
    })
  })
}
