import type { Page } from 'playwright-core'
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

/** Registers and leaves the onboarding behind (without JS there are no dialogs to close). */
export async function newUser(page: Page, mode: string, javaScriptEnabled = true) {
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
