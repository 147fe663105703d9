import { describe, expect, test } from 'vitest'
import { open, setupBrowser } from './browser.ts'
import { newUser } from './people.ts'
import { answerProvider, choosePackage, paymentResult } from './payments.ts'

// The top-up page in the browser: buying a bid package on the sandbox, without JavaScript too.

describe('top-up in the browser', () => {
  const browser = setupBrowser()

  test('without JavaScript: buy 50, pay on the sandbox, see the result and the new balance', async () => {
    const page = await browser.newPage({ javaScriptEnabled: false })
    await newUser(page, 'pay')
    await open(page, '/how-it-works')
    const headerBalance = page.getByTitle('Баланс ставок — пополнить')
    await expect.poll(() => headerBalance.textContent()).toBe('5 ставок')

    await open(page, '/topup')
    await choosePackage(page, '50 ставок')
    await page.waitForURL(/\/payments\/sandbox\//)
    await expect.poll(() => page.getByText('750,00 сом').count()).toBeGreaterThan(0)
    await answerProvider(page, 'Оплатить')
    await expect
      .poll(() => paymentResult(page))
      .toContain('Оплата прошла: на баланс зачислено 50 ставок.')
    expect(await headerBalance.textContent()).toBe('55 ставок')
  })

  test('declining on the sandbox shows the failure and credits nothing', async () => {
    const page = await browser.newPage({ javaScriptEnabled: false })
    await newUser(page, 'decline')
    await open(page, '/topup')
    await choosePackage(page, '100 ставок')
    await page.waitForURL(/\/payments\/sandbox\//)
    await answerProvider(page, 'Отклонить')
    expect(await paymentResult(page)).toContain('Оплата не прошла')
    expect(await page.getByTitle('Баланс ставок — пополнить').textContent()).toBe('5 ставок')
  })

  test('an anonymous visitor sees the packages and Buy leads to the login', async () => {
    const page = await browser.newPage()
    await open(page, '/topup')
    expect(await page.getByRole('article').count()).toBe(5)
    const popular = page.getByRole('article', { name: '250 ставок', exact: true })
    expect(await popular.getByText('Популярный').count()).toBe(1)
    expect(await popular.getByText(/^3\s750,00 сом$/).count()).toBe(1)
    expect(await popular.locator('s').textContent()).toMatch(/^5\s000,00 сом$/)
    expect(await page.getByRole('heading', { name: 'Безопасная оплата' }).count()).toBe(1)
    expect(await page.getByRole('heading', { name: 'Мгновенное зачисление' }).count()).toBe(1)
    expect(await page.getByRole('heading', { name: 'Поддержка 24/7' }).count()).toBe(1)
    await choosePackage(page, '100 ставок')
    await page.waitForURL((url) => url.pathname === '/login')
    expect(new URL(page.url()).searchParams.get('redirectTo')).toBe('/topup')
  })
})
