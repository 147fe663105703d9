import { describe, expect, test } from 'vitest'
import { hydrated, open, screenshot, setupBrowser } from './browser.ts'
import { createAuction } from './auctions.ts'
import { dismissOnboarding, logout, register, uniqueName } from './people.ts'
import { withoutPageTexts } from './pages.ts'

const browser = setupBrowser()

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? 'js' : 'nojs'

  describe(`accounts (${javaScriptEnabled ? 'JS on' : 'JS off'})`, () => {
    test('register -> welcome -> complete profile; the header shows the 5 free bids', async () => {
      const page = await browser.newPage({ javaScriptEnabled })
      const name = uniqueName(mode)
      await register(page, name)
      await page.getByRole('heading', { name: `Добро пожаловать, ${name}!` }).waitFor()
      // (A modal dialog hides the rest of the page from the accessibility tree: use the element.)
      expect(await page.locator('header').textContent()).toContain('5 ставок')
      expect(await page.locator('header').textContent()).toContain(name)
      if (javaScriptEnabled) {
        // A dialog: closing the welcome opens the complete-profile dialog.
        await page.getByRole('dialog').getByRole('button', { name: 'Закрыть' }).click()
        await page.getByRole('dialog').getByRole('heading', { name: 'Заполните профиль' }).waitFor()
      }
      const form = page.locator('form[action="/complete-profile"]')
      await form.getByLabel('Имя').fill('Айбек')
      await form.getByLabel('Фамилия').fill('Осмонов')
      // The first failing check (docs/rules.md#onboarding) is reported: the phone is still just +996.
      await form.getByRole('button', { name: 'Заполнить профиль' }).click()
      await page.getByText('Телефон обязателен для заполнения').first().waitFor()
      if (!javaScriptEnabled) {
        // Without JS the failure came back as a toast after a redirect; the form is gone, so the
        // profile is completed on /profile later. With JS the dialog stays open.
        return
      }
      await form.getByLabel('Телефон').fill(`+996 55${String(Date.now()).slice(-7)}`)
      expect(await form.getByLabel('Телефон').inputValue()).toMatch(/^\+99655\d{7}$/)
      await form.getByLabel('Дата рождения').fill('1995-04-12')
      await form.getByLabel('Пол').selectOption('male')
      // The toast shows for 5 s and may come before the dialog is gone: both are awaited at once.
      const saved = page.getByText('Профиль обновлен').first().waitFor()
      await form.getByRole('button', { name: 'Заполнить профиль' }).click()
      await Promise.all([page.getByRole('dialog').waitFor({ state: 'detached' }), saved])
      await screenshot(page, `registered-${mode}`)
    })

    test('a wrong password says "Неверные учетные данные"; the right one logs in; logout logs out', async () => {
      const page = await browser.newPage({ javaScriptEnabled })
      const name = uniqueName(mode)
      await register(page, name, 'right-password')
      if (javaScriptEnabled) await dismissOnboarding(page)
      await logout(page, name)
      await page.getByText('Вы вышли из аккаунта').first().waitFor()
      await page.locator('header').getByText(name).first().waitFor({ state: 'detached' })

      await open(page, '/login')
      const panel = page.getByRole('tabpanel', { name: 'Вход' })
      await panel.getByLabel('Имя пользователя или email').fill(name)
      await panel.getByLabel('Пароль').fill('wrong-password')
      await panel.getByRole('button', { name: 'Войти' }).click()
      await panel.getByRole('alert').filter({ hasText: 'Неверные учетные данные' }).waitFor()
      expect(new URL(page.url()).pathname).toBe('/login')

      await panel.getByLabel('Пароль').fill('right-password')
      await panel.getByRole('button', { name: 'Войти' }).click()
      await page.waitForURL((url) => url.pathname === '/')
      await page.locator('header').getByText(name).first().waitFor()
      // Logged in, /login sends you home.
      await open(page, '/login')
      expect(new URL(page.url()).pathname).toBe('/')
    })

    test('registration errors are shown on their fields', async () => {
      const page = await browser.newPage({ javaScriptEnabled })
      await open(page, '/login?tab=register')
      const panel = page.getByRole('tabpanel', { name: 'Регистрация' })
      await panel.getByLabel('Имя пользователя', { exact: true }).fill('ab')
      await panel.getByLabel('Email', { exact: true }).fill('not-an-email@x')
      await panel.getByLabel('Пароль', { exact: true }).fill('12345')
      await panel.getByLabel('Повторите пароль').fill('54321')
      // Browsers' own constraint checks would stop a JS-less post before the server sees it;
      // the server's answer is what is tested here.
      await page.evaluate(() =>
        document.querySelectorAll('form').forEach((f) => (f.noValidate = true)),
      )
      await panel.getByRole('button', { name: 'Зарегистрироваться' }).click()
      await panel.getByText('Имя пользователя должно содержать минимум 3 символа').waitFor()
      expect(await panel.getByText('Пароль должен содержать минимум 6 символов').count()).toBe(1)
      await screenshot(page, `register-errors-${mode}`)
    })
  })
}

test('the header dialog logs in without leaving the page', async () => {
  const setup = await browser.newPage()
  const name = uniqueName('dlg')
  await register(setup, name, 'dialog-pass')
  await dismissOnboarding(setup)
  const page = await browser.newPage()
  await page.goto('/how-it-works-missing')
  await page.getByRole('button', { name: 'Войти' }).first().click()
  const dialog = page.getByRole('dialog', { name: 'Войдите, чтобы делать ставки' })
  await dialog.getByRole('link', { name: 'Условия использования' }).first().waitFor()
  const panel = dialog.getByRole('tabpanel', { name: 'Вход' })
  await panel.getByLabel('Имя пользователя или email').fill(`${name}@mail.kg`)
  await panel.getByLabel('Пароль').fill('dialog-pass')
  await panel.getByRole('button', { name: 'Войти' }).click()
  await page.getByRole('banner').getByText(name).first().waitFor()
  expect(new URL(page.url()).pathname).toBe('/how-it-works-missing')
})

describe('onboarding with JavaScript', () => {
  test('the page reloading its data while the welcome is open does not skip the profile dialog', async () => {
    // Live on the home page, no bids: it ends 10 s after its start, and its card then reloads
    // the page's data, which no longer carries the onboarding flags.
    await createAuction({ title: `Онбординг ${uniqueName('ob')}`, startsInMs: 300 })
    const page = await browser.newPage()
    // The page says it has shown the dialogs: their flags end then, not with the data that
    // brought them (docs/rules.md#onboarding).
    const saidShown = page.waitForResponse(
      (response) =>
        new URL(response.url()).pathname === '/resources/onboarding.data' &&
        response.request().method() === 'POST',
    )
    await register(page, uniqueName('ob'))
    await page
      .getByRole('dialog')
      .getByRole('heading', { name: /Добро пожаловать/ })
      .waitFor()
    await page.waitForResponse(
      (response) => response.url().includes('/_root.data') && response.request().method() === 'GET',
      { timeout: 25_000 },
    )
    await page.getByRole('dialog').getByRole('button', { name: 'Закрыть' }).click()
    await page.getByRole('dialog').getByRole('heading', { name: 'Заполните профиль' }).waitFor()
    expect((await saidShown).ok()).toBe(true)
    // Shown once: the page loaded again has neither dialog in its HTML.
    const again = await page.goto('/how-it-works')
    expect(withoutPageTexts((await again?.text()) ?? '')).not.toMatch(
      /Добро пожаловать|Заполните профиль/,
    )
  }, 45_000)

  test("the page reading its data again before the dialogs' code arrives still shows the welcome", async () => {
    const page = await browser.newPage()
    // A slow connection: the dialogs' code is held until the page has read its data again.
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    await page.route(/\/assets\/onboarding[^/]*\.js$/, async (route) => {
      await held
      await route.continue()
    })
    await register(page, uniqueName('ob'))
    await hydrated(page)
    // Going to another page reads the root's data again, without the onboarding flags.
    const readAgain = page.waitForResponse((response) => response.url().includes('/auctions.data'))
    await page.getByRole('banner').getByRole('link', { name: 'Аукционы', exact: true }).click()
    await readAgain
    release()
    await page
      .getByRole('dialog')
      .getByRole('heading', { name: /Добро пожаловать/ })
      .waitFor()
  })
})
