import { describe, expect, test } from 'vitest'
import { newAccount } from './api.ts'
import { createAuction, createFinishedAuction, createOrder, e2eDatabase } from './auctions.ts'
import { open, setupBrowser } from './browser.ts'
import { signIn } from './people.ts'

// Every admin dialog is a child route of its list (/admin/users/ID/delete, /admin/orders/ID/refund,
// /admin/finished-auctions/ID/delete, …): without JavaScript it is a section of the list's page
// and its form a plain post; the addresses that used to open it with a query parameter
// (?confirm=delete:ID, ?refund=ID, ?edit=ID) still do, redirected by the list.
const browser = setupBrowser()

const pathAndQuery = (url: string) => {
  const at = new URL(url)
  return `${at.pathname}${at.search}`
}

describe('admin dialogs as routes, without JavaScript', () => {
  test("a user's delete: the dialog page renders, its form posts, the list's search is kept", async () => {
    const person = await newAccount()
    const page = await browser.newPage({ javaScriptEnabled: false })
    await signIn(page, 'admin', 'admin123')
    const answer = await open(page, `/admin/users/${person.id}/delete?search=${person.name}`)
    expect(answer?.status()).toBe(200)
    const confirm = page.getByRole('region', { name: `Удалить пользователя ${person.name}?` })
    await confirm.getByText('останутся в аукционах, но без имени').waitFor()
    // The list stays under the dialog, its search with it.
    await page.getByRole('row').filter({ hasText: person.name }).waitFor()
    await confirm.getByRole('button', { name: 'Да, удалить' }).click()
    await page.getByText(`Пользователь ${person.name} удалён`).first().waitFor()
    expect(pathAndQuery(page.url())).toBe(`/admin/users?search=${person.name}`)
    expect(await e2eDatabase().user.count({ where: { id: person.id } })).toBe(0)
  })

  test('the older ?confirm=delete:ID and ?edit=ID addresses open the same dialogs', async () => {
    const person = await newAccount()
    const page = await browser.newPage({ javaScriptEnabled: false })
    await signIn(page, 'admin', 'admin123')
    await open(page, `/admin/users?search=${person.name}&confirm=delete:${person.id}`)
    expect(pathAndQuery(page.url())).toBe(`/admin/users/${person.id}/delete?search=${person.name}`)
    await page.getByRole('region', { name: `Удалить пользователя ${person.name}?` }).waitFor()

    await open(page, `/admin/users?page=1&edit=${person.id}&activity=ignored`)
    expect(pathAndQuery(page.url())).toBe(`/admin/users/${person.id}/edit?page=1`)
    await page
      .getByRole('region', { name: `Редактирование пользователя ${person.name}` })
      .getByLabel('Телефон')
      .waitFor()

    await open(page, `/admin/users?activity=${person.id}`)
    expect(pathAndQuery(page.url())).toBe(`/admin/users/${person.id}/activity`)
    await page.getByRole('region', { name: `Активность пользователя ${person.name}` }).waitFor()
  })

  test("the older ?refund=ID address opens the order's refund route", async () => {
    const person = await newAccount()
    const lot = await createAuction({ title: `Возврат ${person.name}`, startsInMs: 3_600_000 })
    const order = await createOrder(person.id, lot.id)
    const page = await browser.newPage({ javaScriptEnabled: false })
    await signIn(page, 'admin', 'admin123')
    await open(page, `/admin/orders?status=awaiting_payment&refund=${order.id}`)
    expect(pathAndQuery(page.url())).toBe(
      `/admin/orders/${order.id}/refund?status=awaiting_payment`,
    )
    const refund = page.getByRole('region', { name: `Возврат денег: «${lot.title}»` })
    // Nothing was paid: the dialog says so and offers no form.
    await refund.getByText('Заказ не оплачен: возвращать нечего').waitFor()
    expect(await refund.getByLabel('Причина возврата').count()).toBe(0)
    await refund.getByRole('link', { name: 'Закрыть' }).click()
    expect(pathAndQuery(page.url())).toBe('/admin/orders?status=awaiting_payment')
  })

  test('a finished auction: ?confirm=delete:ID redirects, the delete posts and goes back', async () => {
    const winner = await newAccount()
    const auction = await createFinishedAuction({
      title: 'Маршрут удаления',
      winnerId: winner.id,
      finalPrice: 3_21,
    })
    const page = await browser.newPage({ javaScriptEnabled: false })
    await signIn(page, 'admin', 'admin123')
    await open(page, `/admin/finished-auctions?confirm=delete:${auction.id}`)
    expect(pathAndQuery(page.url())).toBe(`/admin/finished-auctions/${auction.id}/delete`)
    const confirm = page.getByRole('region', { name: `Удалить аукцион «${auction.title}»?` })
    await confirm.getByRole('button', { name: 'Удалить' }).click()
    await page.getByText(`Аукцион «${auction.title}» удалён`).first().waitFor()
    expect(pathAndQuery(page.url())).toBe('/admin/finished-auctions')
    expect(await e2eDatabase().auction.count({ where: { id: auction.id } })).toBe(0)
  })
})
