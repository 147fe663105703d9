import { expect, test } from 'vitest'
import { artifacts, open, phone, screenshot, setupBrowser, type PageOptions } from './browser.ts'
import { createAuction as seedAuction } from './auctions.ts'
import { focused, newAdminPage } from './admin-dashboard-steps.ts'
import { uniqueName } from './people.ts'

// Runs alone: as the rest of the admin dashboard's tests (admin-dashboard.e2e.ts turns the house
// bots off and on); it reads the dashboard's table of all auctions.

// The admin dashboard's focus and its phone screen: a dialog route gives focus back to the link
// that opened it, and the page and its dialogs fit a phone.
const browser = setupBrowser()
const adminPage = (options?: PageOptions) => newAdminPage(browser, options)

test('a dialog route gives focus back to the link that opened it', async () => {
  const page = await adminPage()
  await open(page, '/admin?page=1')
  // Hydrated first (the language switcher drops its OK button): before that, Enter on the link
  // loads the dialog's page anew, and focus then goes back to the section's heading instead.
  await page.getByRole('button', { name: 'OK', exact: true }).first().waitFor({ state: 'detached' })
  const create = page.getByRole('link', { name: 'Создать аукцион' })
  await create.focus()
  await page.keyboard.press('Enter')
  const dialogBox = page.getByRole('dialog', { name: 'Новый аукцион' })
  await dialogBox.waitFor()
  // Focus moves into the dialog and stays there.
  await focused(dialogBox.getByLabel('Название *'))
  expect(page.url()).toMatch(/\/admin\/auctions\/new\?page=1$/)
  await page.keyboard.press('Escape')
  await dialogBox.waitFor({ state: 'detached' })
  expect(page.url()).toMatch(/\/admin\?page=1$/)
  await focused(create)

  // One auction's edit link, by its whole name: other test files add and end auctions meanwhile,
  // so "the first one" may be another link once the table reloads.
  const editName = await page
    .getByRole('link', { name: /^Изменить аукцион/ })
    .first()
    .getAttribute('aria-label')
  const edit = page.getByRole('link', { name: editName!, exact: true })
  await edit.click()
  await page.getByRole('dialog').getByRole('link', { name: 'Отмена' }).click()
  await page.getByRole('dialog').waitFor({ state: 'detached' })
  await focused(edit)
})

test('on a phone the page and its dialogs fit the screen', async () => {
  const page = await adminPage({ ...phone })
  await open(page, '/admin')
  await page.getByRole('heading', { level: 1 }).waitFor()
  // A phone widens its layout viewport to the content, so compare with the screen's width.
  const fits = () =>
    page.evaluate((width) => document.documentElement.scrollWidth <= width, phone.viewport.width)
  expect(await fits()).toBe(true)
  await screenshot(page, 'admin-dashboard-phone')
  await page.getByRole('link', { name: 'Создать аукцион' }).click()
  await page.getByRole('dialog').waitFor()
  expect(await fits()).toBe(true)
  await page.screenshot({ path: `${artifacts}/admin-dashboard-phone-create.png` })
  await page.getByRole('dialog').getByRole('link', { name: 'Отмена' }).click()
  await page.getByRole('dialog').waitFor({ state: 'detached' })
  // An upcoming auction of this test's own: the table's first rows are other files' auctions,
  // which may be ending at this moment.
  const own = await seedAuction({ title: `Телефон ${uniqueName('ph')}`, startsInMs: 3_600_000 })
  await open(page, `/admin/auctions/${own.id}/edit`)
  await page.getByRole('dialog').getByText('Боты аукциона').waitFor()
  expect(await fits()).toBe(true)
  await page.screenshot({ path: `${artifacts}/admin-dashboard-phone-edit.png` })

  // Without JavaScript a dialog route is a section at the top of the dashboard.
  const nojs = await adminPage({ ...phone, javaScriptEnabled: false })
  await open(nojs, '/admin/auctions/new')
  await nojs.getByRole('region', { name: 'Новый аукцион' }).waitFor()
  expect(
    await nojs.evaluate(
      (width) => document.documentElement.scrollWidth <= width,
      phone.viewport.width,
    ),
  ).toBe(true)
  await nojs.screenshot({ path: `${artifacts}/admin-dashboard-phone-create-nojs.png` })
})
