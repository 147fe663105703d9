import type { Page } from 'playwright-core'
import { base, call, newAccount } from './api.ts'
import { open } from './browser.ts'

// What a person does on the site, shared by the browser tests.

let counter = 0
// The process id keeps names apart across files running at the same time.
export const uniqueName = (mode: string) =>
  `e2e${mode}${Date.now().toString(36)}${process.pid.toString(36)}${counter++}`

export async function register(page: Page, name: string, password = 'secret12') {
  await open(page, '/login?tab=register')
  const panel = page.getByRole('tabpanel', { name: 'Регистрация' })
  await panel.getByLabel('Имя пользователя', { exact: true }).fill(name)
  await panel.getByLabel('Email', { exact: true }).fill(`${name}@mail.kg`)
  await panel.getByLabel('Пароль', { exact: true }).fill(password)
  await panel.getByLabel('Повторите пароль').fill(password)
  await panel.getByRole('button', { name: 'Зарегистрироваться' }).click()
  await page.waitForURL((url) => url.pathname === '/')
}

export async function login(page: Page, name: string, password = 'secret12') {
  await open(page, '/login')
  const panel = page.getByRole('tabpanel', { name: 'Вход' })
  await panel.getByLabel('Имя пользователя или email').fill(name)
  await panel.getByLabel('Пароль').fill(password)
  await panel.getByRole('button', { name: 'Войти' }).click()
  await page.waitForURL((url) => !url.pathname.startsWith('/login'))
}

/** With JS the welcome and complete-profile dialogs cover the page: close both. */
export async function dismissOnboarding(page: Page) {
  await page.getByRole('dialog').getByRole('button', { name: 'Закрыть' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Пропустить' }).click()
  await page.getByRole('dialog').waitFor({ state: 'detached' })
}

/**
 * Gives `page`'s browser the session cookie a JSON API answer set, with its attributes (a
 * `__Host-` cookie must be Secure, which a browser allows on localhost).
 */
async function giveSession(page: Page, setCookies: string[]) {
  const [pair = '', ...attributes] = (setCookies[0] ?? '').split(';').map((part) => part.trim())
  const at = pair.indexOf('=')
  const has = (name: string) => attributes.some((a) => a.toLowerCase() === name)
  await page.context().addCookies([
    {
      name: pair.slice(0, at),
      value: pair.slice(at + 1),
      // By host and path: Chromium refuses a Secure cookie given with an http:// address.
      domain: new URL(base()).hostname,
      path: '/',
      secure: has('secure'),
      httpOnly: has('httponly'),
      sameSite: 'Lax',
    },
  ])
}

/**
 * Signs `page`'s browser in through the JSON API's login (the same check as the login page's;
 * accounts.e2e.ts tests the page itself). The page stays where it is.
 */
export async function signIn(page: Page, name: string, password = 'secret12') {
  const answer = await call('/api/auth/login', { body: { username: name, password } })
  if (answer.status !== 200) throw new Error(`login failed: ${answer.status}`)
  await giveSession(page, answer.setCookies)
}

/**
 * A new person signed in in `page`'s browser: registered through the JSON API (the same
 * registration and free bids as the page's; accounts.e2e.ts tests the page itself) with the
 * session's cookie given to the browser, as a person who registered and closed the welcome
 * would be. The page stays where it is: the test opens what it needs. Returns the username.
 */
export async function newUser(page: Page, mode: string) {
  const { name, setCookies } = await newAccount(uniqueName(mode))
  await giveSession(page, setCookies)
  return name
}

/** Registers on the page and leaves the onboarding behind (without JS there are no dialogs). */
export async function registerOnPage(page: Page, mode: string, javaScriptEnabled = true) {
  const name = uniqueName(mode)
  await register(page, name)
  if (javaScriptEnabled) await dismissOnboarding(page)
  return name
}

/** Logs out through the header's user menu (wide screens). */
export async function logout(page: Page, name: string) {
  await page.locator('header summary').filter({ hasText: name }).first().click()
  await page.locator('header details[open]').getByRole('button', { name: 'Выйти' }).click()
}
