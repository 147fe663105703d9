import type { Page } from 'playwright-core'
import { afterAll, describe, expect, test } from 'vitest'
import { createWinnerOrders } from '../../engine/index.ts'
import { startFreedomPayFake, type FreedomPayFake } from '../support/freedompay-fake.ts'
import { sessionOf } from './api.ts'
import { createFinishedAuction, e2eDatabase } from './auctions.ts'
import { open, setupBrowser } from './browser.ts'
import { login, registerOnPage } from './people.ts'
import { answerProvider, choosePackage, orderCard, paymentResult } from './payments.ts'
import { secondServer } from './second-server.ts'

// Paying with Freedom Pay end to end, against the local fake of its API
// (tests/support/freedompay-fake.ts) and a production server set up for it, with JavaScript and
// without: a bid package (the checkout redirect to the fake's payment page, Pay, the signed
// callback sent three times, the bids credited exactly once), and a won order with courier
// delivery paid the same way, then refunded by an admin on /admin/orders through the fake's
// revoke.php (docs/rules.md#refunds).

describe('Freedom Pay in the browser', () => {
  const browser = setupBrowser()
  const start = secondServer('fpay')
  let fake: FreedomPayFake
  let url = ''

  afterAll(async () => {
    await fake?.stop()
  })

  /** The fake and the server that pays through it, started for the first test that needs them. */
  async function serve() {
    if (url) return
    fake = await startFreedomPayFake()
    url = await start({
      PAYMENT_PROVIDER: 'freedompay',
      FREEDOMPAY_MERCHANT_ID: fake.merchantId,
      FREEDOMPAY_SECRET_KEY: fake.secretKey,
      FREEDOMPAY_API_URL: fake.url,
      FREEDOMPAY_TEST_MODE: '1',
    })
  }

  async function buyFifty(javaScriptEnabled: boolean) {
    await serve()
    fake.behave({ repeat: 3 })
    const page = await browser.newPage({ baseURL: url, javaScriptEnabled })
    await registerOnPage(page, 'fpay', javaScriptEnabled)
    const headerBalance = page.getByTitle('Баланс ставок — пополнить')
    await expect.poll(() => headerBalance.textContent()).toBe('5 ставок')
    await open(page, '/topup')
    // Freedom Pay is real money: no demo notice.
    expect(await page.getByTestId('sandbox-demo').count()).toBe(0)
    await choosePackage(page, '50 ставок')
    await page.waitForURL((at) => at.href.startsWith(`${fake.url}/pay.html`))
    expect(await page.locator('#amount').textContent()).toBe('750.00 KGS')
    await answerProvider(page, 'Pay')
    await expect
      .poll(() => paymentResult(page))
      .toContain('Оплата прошла: на баланс зачислено 50 ставок.')
    expect(await headerBalance.textContent()).toBe('55 ставок')
    const paymentId = new URL(page.url()).searchParams.get('payment')!
    const callbacks = fake.callbacks.filter((c) => c.orderId === paymentId)
    expect(callbacks).toHaveLength(3)
    for (const callback of callbacks) {
      expect(callback).toMatchObject({ status: 200, pgStatus: 'ok', answerSigned: true })
    }
    // A reload does not credit again either.
    await page.reload()
    await expect.poll(() => headerBalance.textContent()).toBe('55 ставок')
  }

  test('without JavaScript: buy 50, pay at Freedom Pay, credited once for three callbacks', async () => {
    await buyFifty(false)
  })

  test('with JavaScript: the same', async () => {
    await buyFifty(true)
  })

  /**
   * An auction the user won a minute ago at 1 234,56 som; its order awaiting payment is made by
   * the function the server's worker runs (which may get there first: either way one order).
   */
  async function wonOrder(userId: string) {
    const prisma = e2eDatabase()
    const auction = await createFinishedAuction({
      title: 'Выигрыш',
      winnerId: userId,
      finalPrice: 1234_56,
    })
    await createWinnerOrders(prisma, new Date())
    const order = await prisma.order.findFirstOrThrow({
      where: { auctionId: auction.id, kind: 'win' },
      select: { id: true },
    })
    return { id: order.id, title: auction.title }
  }

  /** The admin refunds an order on /admin/orders: the link in its row, the reason, confirm. */
  async function refundOnAdminPage(
    admin: Page,
    javaScriptEnabled: boolean,
    order: { id: string; title: string },
    username: string,
  ) {
    await open(admin, '/admin/orders?status=paid')
    const row = admin.getByRole('row').filter({ hasText: username })
    await row.getByText('Оплачено').first().waitFor()
    await row.getByRole('link', { name: `Вернуть деньги: ${order.title}, ${username}` }).click()
    await admin.waitForURL((at) => at.pathname === `/admin/orders/${order.id}/refund`)
    // With JavaScript a dialog; without, the same content as a section of the page.
    const confirm = javaScriptEnabled
      ? admin.getByRole('dialog', { name: `Возврат денег: «${order.title}»` })
      : admin.getByRole('region', { name: `Возврат денег: «${order.title}»` })
    await confirm
      .getByText(/вернётся 1\s434,56\sсом через платёжного провайдера, заказ будет отменён/)
      .waitFor()
    await confirm.getByLabel('Причина возврата').fill('Покупатель отказался от заказа')
    await confirm.getByRole('button', { name: 'Вернуть деньги' }).click()
    await admin.getByText(`Деньги за заказ по лоту «${order.title}» возвращены`).first().waitFor()
    expect(new URL(admin.url()).searchParams.get('refund')).toBeNull()
  }

  async function payOrderAndRefund(javaScriptEnabled: boolean) {
    await serve()
    fake.behave({})
    const prisma = e2eDatabase()
    const page = await browser.newPage({ baseURL: url, javaScriptEnabled })
    const username = await registerOnPage(page, 'fpord', javaScriptEnabled)
    const user = await prisma.user.findUniqueOrThrow({ where: { username } })
    const order = await wonOrder(user.id)

    // Courier delivery in Bishkek costs 200 som on top of the price.
    await open(page, '/profile')
    const card = orderCard(page, order.title)
    await card.getByText('Ожидает оплаты').waitFor()
    await card.getByLabel(/Курьер по Бишкеку/).check()
    await card.getByLabel('Адрес доставки').fill('Бишкек, ул. Киевская, 1')
    await card.getByLabel('Телефон для связи').fill('+996700123456')
    await card.getByRole('button', { name: 'Сохранить доставку' }).click()
    await page.getByText('Способ доставки сохранён').first().waitFor()
    await card.getByRole('link', { name: /^Оплатить 1\s434,56\sсом$/ }).click()
    await page.waitForURL((at) => at.pathname === `/topup/order/${order.id}`)
    await page.getByText(/^Курьер по Бишкеку — 200,00\sсом$/).waitFor()
    await page.getByRole('button', { name: /^Оплатить 1\s434,56\sсом$/ }).click()

    await page.waitForURL((at) => at.href.startsWith(`${fake.url}/pay.html`))
    expect(await page.locator('#amount').textContent()).toBe('1434.56 KGS')
    expect(await page.locator('#description').textContent()).toBe(`Оплата заказа: ${order.title}`)
    await answerProvider(page, 'Pay')
    await expect
      .poll(() => paymentResult(page))
      .toContain(`Оплата прошла: заказ «${order.title}» оплачен.`)

    const paymentId = new URL(page.url()).searchParams.get('payment')!
    const callbacks = fake.callbacks.filter((c) => c.orderId === paymentId)
    expect(callbacks).toHaveLength(1)
    expect(callbacks[0]).toMatchObject({
      status: 200,
      pgStatus: 'ok',
      answerSigned: true,
      fields: { pg_amount: '1434.56', pg_currency: 'KGS', pg_result: '1' },
    })
    const fakePayment = fake.byOrder(paymentId)!
    const paid = await prisma.order.findUniqueOrThrow({ where: { id: order.id } })
    expect(paid).toMatchObject({
      status: 'paid',
      price: 1234_56,
      deliveryMethod: 'courier_bishkek',
      deliveryFee: 200_00,
      address: 'Бишкек, ул. Киевская, 1',
    })
    expect(paid.paidAt).toBeInstanceOf(Date)
    const payment = await prisma.payment.findUniqueOrThrow({ where: { id: paymentId } })
    expect(payment).toMatchObject({
      provider: 'freedompay',
      providerTxnId: fakePayment.id,
      purpose: 'order',
      orderId: order.id,
      status: 'paid',
      failureReason: null,
      currency: 'KGS',
      amount: paid.price + paid.deliveryFee,
    })
    // The person's profile says so too.
    await open(page, '/profile')
    await card.getByText('Оплачен', { exact: true }).waitFor()
    await card.getByText(/^1\s434,56\sсом$/).waitFor()

    // An admin returns the money on /admin/orders: Freedom Pay revokes the whole amount.
    const admin = await browser.newPage({ baseURL: url, javaScriptEnabled })
    await login(admin, 'admin', 'admin123')
    await refundOnAdminPage(admin, javaScriptEnabled, order, username)
    const revokes = () =>
      fake.requests.filter(
        (r) => r.script === 'revoke.php' && r.fields.pg_payment_id === fakePayment.id,
      )
    expect(revokes()).toHaveLength(1)
    expect(revokes()[0]).toMatchObject({
      signed: true,
      fields: { pg_merchant_id: fake.merchantId, pg_refund_amount: '1434.56' },
    })
    // Freedom Pay keeps the payment `success` and lists the refund beside it.
    expect(fakePayment.refunds).toMatchObject([{ amount: '1434.56' }])
    const adminUser = await prisma.user.findUniqueOrThrow({ where: { username: 'admin' } })
    const refunded = await prisma.payment.findUniqueOrThrow({ where: { id: paymentId } })
    expect(refunded).toMatchObject({
      status: 'refunded',
      refundReason: 'Покупатель отказался от заказа',
      refundId: fakePayment.id,
      refundedBy: adminUser.id,
      amount: 1434_56,
    })
    expect(refunded.refundedAt).toBeInstanceOf(Date)
    expect((await prisma.order.findUniqueOrThrow({ where: { id: order.id } })).status).toBe(
      'cancelled',
    )

    // /admin/payments lists it under Refunded, through its filter link.
    await open(admin, '/admin/payments')
    await admin
      .getByRole('navigation', { name: 'Статус платежа' })
      .getByRole('link', { name: 'Возвращён' })
      .click()
    await admin.waitForURL((at) => at.searchParams.get('status') === 'refunded')
    const listed = admin.locator(`tr[data-payment-id="${paymentId}"]`)
    await listed.getByText('Возвращён', { exact: true }).waitFor()
    expect(await listed.getByText(fakePayment.id).count()).toBe(1)
    expect(await listed.getByText('freedompay', { exact: true }).count()).toBe(1)

    // A second refund is refused, on the page and through the API, and reaches no provider.
    await open(admin, `/admin/orders?refund=${order.id}`)
    const again = javaScriptEnabled
      ? admin.getByRole('dialog')
      : admin.getByRole('region', { name: /^Возврат денег/ })
    await again.getByText('Деньги за этот заказ уже возвращены').waitFor()
    expect(await again.getByLabel('Причина возврата').count()).toBe(0)
    const signedIn = await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Accept-Language': 'ru' },
      body: JSON.stringify({ username: 'admin', password: 'admin123' }),
    })
    expect(signedIn.status).toBe(200)
    const repeat = await fetch(`${url}/api/admin/orders/${order.id}/refund`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'Accept-Language': 'ru',
        Cookie: sessionOf(signedIn.headers.get('set-cookie')),
      },
      body: JSON.stringify({ reason: 'ещё раз' }),
    })
    expect(repeat.status).toBe(409)
    expect(await repeat.json()).toEqual({ error: 'Деньги за этот заказ уже возвращены' })
    expect(revokes()).toHaveLength(1)
    expect((await prisma.payment.findUniqueOrThrow({ where: { id: paymentId } })).status).toBe(
      'refunded',
    )
  }

  test('without JavaScript: a won order with courier delivery paid at Freedom Pay, then refunded', async () => {
    await payOrderAndRefund(false)
  })

  test('with JavaScript: the same', async () => {
    await payOrderAndRefund(true)
  })
})
