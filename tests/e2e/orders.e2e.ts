import { PrismaPg } from '@prisma/adapter-pg'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { createWinnerOrders } from '../../engine/index.ts'
import { PrismaClient } from '../../prisma/generated/client.ts'
import { call, newAccount, sessionOf } from './api.ts'
import { createFinishedAuction } from './auctions.ts'
import { open, screenshot, setupBrowser } from './browser.ts'
import { signIn } from './people.ts'
import { orderCard } from './payments.ts'

// Runs alone: /admin/orders and GET /api/admin/orders list every order, newest first, and the
// tests look for theirs on the first page.

// Winners' orders, delivery, Buy It Now and /admin/orders (docs/rules.md#winner-orders; decisions 016
// and 017), without JavaScript, plus who may see and change what. A bid-package auction's order:
// orders-bid-package.e2e.ts.
const browser = setupBrowser()
const prisma = new PrismaClient({
  adapter: new PrismaPg({ connectionString: inject('e2eDatabaseUrl') }),
})
afterAll(() => prisma.$disconnect())

type Person = { id: string; name: string; cookie: string }

/**
 * An auction finished a minute ago as the outbox writes one: the loser bid twice, the winner
 * last; the winner's order is made by the same function the server's worker runs.
 */
async function finishedAuction(winner: Person, loser: Person) {
  const auction = await createFinishedAuction({
    title: 'Заказ',
    winnerId: winner.id,
    finalPrice: 4,
  })
  const end = auction.endTime!
  const at = (seconds: number) => new Date(end.getTime() - seconds * 1000)
  await prisma.bid.createMany({
    data: [
      { auctionId: auction.id, userId: loser.id, amount: 1, createdAt: at(40) },
      { auctionId: auction.id, userId: winner.id, amount: 2, createdAt: at(30) },
      { auctionId: auction.id, userId: loser.id, amount: 3, createdAt: at(20) },
      { auctionId: auction.id, userId: winner.id, amount: 4, createdAt: at(10) },
    ],
  })
  await createWinnerOrders(prisma, new Date())
  const order = await prisma.order.findFirstOrThrow({
    where: { auctionId: auction.id, kind: 'win' },
  })
  return { auction, order }
}

let winner: Person
let loser: Person
let stranger: Person
let lot: Awaited<ReturnType<typeof finishedAuction>>

beforeAll(async () => {
  ;[winner, loser, stranger] = [await newAccount(), await newAccount(), await newAccount()]
  lot = await finishedAuction(winner, loser)
})

describe('orders (JS off)', () => {
  test('the winner sees the order, needs an address for the courier, and can pay for pickup', async () => {
    expect(lot.order).toMatchObject({ userId: winner.id, price: 4, status: 'awaiting_payment' })
    const page = await browser.newPage({ javaScriptEnabled: false })
    await signIn(page, winner.name)
    await open(page, '/profile')
    const orders = page.getByRole('region', { name: 'Мои заказы' })
    const card = orders.getByRole('listitem').filter({ hasText: lot.auction.title })
    await card.getByRole('link', { name: lot.auction.title }).waitFor()
    await card.getByText('Выигрыш', { exact: true }).waitFor()
    await card.getByText('Ожидает оплаты').waitFor()
    await card.getByText(/Осталось на оплату: 4[67] ч/).waitFor()
    expect(await card.getByRole('link', { name: /Оплатить/ }).count()).toBe(0)

    await card.getByLabel(/Курьер по Бишкеку/).check()
    await card.getByLabel('Телефон для связи').fill('+996700123456')
    await page.evaluate(() =>
      document.querySelectorAll('form').forEach((f) => (f.noValidate = true)),
    )
    await card.getByRole('button', { name: 'Сохранить доставку' }).click()
    await card.getByText('Укажите адрес доставки (не короче 5 символов)').waitFor()
    expect(await card.getByRole('link', { name: /Оплатить/ }).count()).toBe(0)

    await card.getByLabel(/Самовывоз из офиса/).check()
    await card.getByRole('button', { name: 'Сохранить доставку' }).click()
    await page.getByText('Способ доставки сохранён').first().waitFor()
    const pay = card.getByRole('link', { name: /Оплатить 0,04/ })
    await pay.waitFor()
    expect(await pay.getAttribute('href')).toBe(`/topup/order/${lot.order.id}`)
    await screenshot(page, 'orders-profile-nojs')
    const saved = await prisma.order.findUniqueOrThrow({ where: { id: lot.order.id } })
    expect(saved).toMatchObject({ deliveryMethod: 'pickup', deliveryFee: 0 })
  })

  test('a losing bidder buys it now from the auction page and finds the order on /profile', async () => {
    const page = await browser.newPage({ javaScriptEnabled: false })
    await signIn(page, loser.name)
    await open(page, `/auction/${lot.auction.slug}`)
    const offer = page.getByRole('region', { name: 'Не выиграли? Купите сразу' })
    // 5 000 som retail less two bids at 15 som.
    await offer.getByText('4 970,00 сом').waitFor()
    await offer.getByText('Экономия').waitFor()
    await screenshot(page, 'orders-buy-now-nojs')
    await offer.getByRole('button', { name: 'Купить сейчас' }).click()
    await page.waitForURL((url) => url.pathname === '/profile')
    await page.getByText('Заказ создан').first().waitFor()
    const card = orderCard(page, lot.auction.title)
    await card.getByText('Покупка сразу', { exact: true }).waitFor()
    await card.getByText('4 970,00 сом').first().waitFor()

    // Once per person and auction; the winner and a stranger are refused in their language.
    const again = await call(`/api/auctions/${lot.auction.id}/buy-now`, { cookie: loser.cookie })
    expect(again).toMatchObject({ status: 409, json: { error: 'Вы уже купили этот лот' } })
    const own = await call(`/api/auctions/${lot.auction.id}/buy-now`, {
      cookie: winner.cookie,
      lang: 'en',
    })
    expect(own.status).toBe(403)
    expect(own.json.error).toMatch(/You won this auction/)
    const outsider = await call(`/api/auctions/${lot.auction.id}/buy-now`, {
      cookie: stranger.cookie,
    })
    expect(outsider.status).toBe(403)
    await open(page, `/auction/${lot.auction.slug}`)
    await page.getByText('Вы уже купили этот лот').waitFor()
  })

  test('an admin marks an order paid and then shipped in /admin/orders', async () => {
    const page = await browser.newPage({ javaScriptEnabled: false })
    await signIn(page, 'admin', 'admin123')
    await open(page, '/admin')
    await page
      .getByRole('link', { name: /Заказы/ })
      .first()
      .click()
    await page.waitForURL((url) => url.pathname === '/admin/orders')
    await page.getByLabel('Статус').selectOption('awaiting_payment')
    await page.getByRole('button', { name: 'Показать' }).click()
    const row = page.getByRole('row').filter({ hasText: winner.name })
    await row.getByText('Ожидает оплаты').waitFor()
    await row.getByRole('button', { name: /^Отметить оплату/ }).click()
    await page
      .getByText(/: Оплачен/)
      .first()
      .waitFor()
    await open(page, '/admin/orders?status=paid')
    const paid = page.getByRole('row').filter({ hasText: winner.name })
    await paid.getByRole('button', { name: /^Отправлен/ }).click()
    await page
      .getByText(/: Отправлен/)
      .first()
      .waitFor()
    await open(page, '/admin/orders?status=shipped')
    await page
      .getByRole('row')
      .filter({ hasText: winner.name })
      .getByText('Отправлен')
      .first()
      .waitFor()
    await screenshot(page, 'orders-admin-nojs')
    const order = await prisma.order.findUniqueOrThrow({ where: { id: lot.order.id } })
    expect(order.status).toBe('shipped')
    expect(order.paidAt).not.toBeNull()
    expect(order.shippedAt).not.toBeNull()
  })
})

describe('who may see and change orders', () => {
  // The page's doors are tested with every admin page's (admin-doors.e2e.ts).
  test('anonymous visitors and plain users cannot use the orders API', async () => {
    expect((await call('/api/admin/orders', { method: 'GET' })).status).toBe(401)
    expect(
      (await call('/api/admin/orders', { method: 'GET', cookie: stranger.cookie })).status,
    ).toBe(403)
    const patch = await call(`/api/admin/orders/${lot.order.id}`, {
      method: 'PATCH',
      cookie: stranger.cookie,
      body: { status: 'cancelled' },
    })
    expect(patch.status).toBe(403)
    const admin = await call('/api/auth/login', {
      body: { username: 'admin', password: 'admin123' },
    })
    const list = await call('/api/admin/orders?status=shipped', {
      method: 'GET',
      cookie: sessionOf(admin.cookie),
    })
    expect(list.status).toBe(200)
    expect((list.json.orders as Array<{ id: string }>).map((o) => o.id)).toContain(lot.order.id)
    // Backwards is not a move an admin can make.
    const back = await call(`/api/admin/orders/${lot.order.id}`, {
      method: 'PATCH',
      cookie: sessionOf(admin.cookie),
      body: { status: 'paid' },
    })
    expect(back.status).toBe(409)
  })

  test("a user cannot read or change another user's order", async () => {
    const mine = await call('/api/users/orders', { method: 'GET', cookie: stranger.cookie })
    expect(mine).toMatchObject({ status: 200, json: { orders: [] } })
    const theirs = await call('/api/users/orders', { method: 'GET', cookie: loser.cookie })
    const bought = (theirs.json.orders as Array<{ id: string; kind: string; price: number }>)[0]!
    expect(bought).toMatchObject({ kind: 'buy_now', price: 4970 })

    const foreign = await call(`/api/users/orders/${bought.id}/delivery`, {
      method: 'PUT',
      cookie: stranger.cookie,
      body: { deliveryMethod: 'pickup' },
    })
    expect(foreign).toMatchObject({ status: 404, json: { error: 'Заказ не найден' } })
    const bad = await call(`/api/users/orders/${bought.id}/delivery`, {
      method: 'PUT',
      cookie: loser.cookie,
      body: { deliveryMethod: 'courier_bishkek', phone: '+996700123456' },
    })
    expect(bad).toMatchObject({ status: 400 })
    const ok = await call(`/api/users/orders/${bought.id}/delivery`, {
      method: 'PUT',
      cookie: loser.cookie,
      body: {
        deliveryMethod: 'courier_bishkek',
        address: 'Бишкек, ул. Киевская, 1',
        phone: '+996700123456',
      },
    })
    expect(ok.status).toBe(200)
    expect(ok.json.order).toMatchObject({
      deliveryFee: 200,
      total: 5170,
      payUrl: `/topup/order/${bought.id}`,
    })

    // Another person's profile never lists it either.
    const page = await browser.newPage({ javaScriptEnabled: false })
    await signIn(page, stranger.name)
    await open(page, '/profile')
    await page.getByText('Заказов пока нет').waitFor()
    expect(await page.getByText(lot.auction.title).count()).toBe(0)
  })
})
