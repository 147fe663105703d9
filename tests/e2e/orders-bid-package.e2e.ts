import { describe, expect, test } from 'vitest'
import { createWinnerOrders } from '../../engine/index.ts'
import { base, call, newAccount } from './api.ts'
import { createFinishedAuction, e2eDatabase, outboxWritten } from './auctions.ts'
import { open, screenshot, setupBrowser } from './browser.ts'
import { checkout, orderCard, txn, webhook } from './payments.ts'
import { signIn } from './people.ts'
import { withoutPageTexts } from './pages.ts'

// Runs alone: it makes the winners' orders of every finished auction without one
// (createWinnerOrders), other files' auctions too.

// A bid-package auction's order (docs/rules.md#bid-package-auctions), without JavaScript: paid
// without a delivery step, its bids credited once.
const browser = setupBrowser()
const prisma = e2eDatabase()

describe('a bid-package auction (docs/rules.md#bid-package-auctions)', () => {
  test('its page shows the bids; the winner pays without a delivery step and gets them once', async () => {
    const buyer = await newAccount()
    const auction = await createFinishedAuction({
      title: 'Пакет',
      winnerId: buyer.id,
      finalPrice: 4,
    })
    await prisma.auction.update({
      where: { id: auction.id },
      data: { isBidPackage: true, packageBids: 50 },
    })
    await prisma.bid.create({
      data: { auctionId: auction.id, userId: buyer.id, amount: 4, createdAt: auction.endTime! },
    })
    await createWinnerOrders(prisma, new Date())
    const order = await prisma.order.findFirstOrThrow({ where: { auctionId: auction.id } })
    expect(order).toMatchObject({ userId: buyer.id, bids: 50 })

    const page = await browser.newPage({ javaScriptEnabled: false })
    await open(page, `/auction/${auction.slug}`)
    await page.getByText('Ставок в пакете').waitFor()
    await page.getByText('ставки сразу зачисляются на его баланс').waitFor()
    await signIn(page, buyer.name)
    await open(page, '/profile')
    const card = orderCard(page, auction.title)
    await card.getByText('50 ставок на баланс').waitFor()
    expect(await card.getByRole('button', { name: 'Сохранить доставку' }).count()).toBe(0)
    const pay = card.getByRole('link', { name: /Оплатить 0,04/ })
    expect(await pay.getAttribute('href')).toBe(`/topup/order/${order.id}`)
    const delivery = await call(`/api/users/orders/${order.id}/delivery`, {
      method: 'PUT',
      cookie: buyer.cookie,
      body: { deliveryMethod: 'pickup' },
    })
    expect(delivery.status).toBe(409)

    const payPage = await fetch(`${base()}/topup/order/${order.id}`, {
      headers: { Cookie: buyer.cookie },
    })
    expect(withoutPageTexts(await payPage.text())).toContain(
      '50 ставок на баланс сразу после оплаты',
    )
    const paymentId = await checkout(`/topup/order/${order.id}`, { intent: 'pay' }, buyer.cookie)
    const event = { payment_id: paymentId, transaction_id: txn(), amount: '0.04' }
    // The provider repeats its callback: the bids come once.
    for (let i = 0; i < 3; i++) expect((await webhook(event)).status).toBe(200)
    await outboxWritten()
    const me = await call('/api/auth/me', { method: 'GET', cookie: buyer.cookie })
    expect((me.json.user as { bidBalance: number }).bidBalance).toBe(5 + 50)
    expect(await prisma.order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({
      status: 'delivered',
    })
    expect(
      await prisma.balanceLedger.findMany({
        where: { userId: buyer.id, reason: 'bid_package_win' },
        select: { amount: true, reference: true },
      }),
    ).toEqual([{ amount: 50, reference: `order:${order.id}` }])
    await open(page, '/profile')
    await card.getByText(/Ставки зачислены/).waitFor()
    await screenshot(page, 'orders-bid-package-nojs')
  })
})
