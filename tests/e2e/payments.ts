import { createHmac, randomBytes } from 'node:crypto'
import type { Page } from 'playwright-core'
import { expect } from 'vitest'
import { base } from './api.ts'

// Paying through the sandbox provider as a browser and the provider's server would: a checkout
// form post, then the signed webhook (its secret is the one tests/e2e/global-setup.ts gives the
// server).

export const SECRET = 'e2e-payment-sandbox-secret-0123456789'

export async function postForm(path: string, fields: Record<string, string>, cookie?: string) {
  return fetch(`${base()}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body: new URLSearchParams(fields).toString(),
  })
}

/** Starts a checkout as the buttons do; returns the new Payment's id. */
export async function checkout(path: string, fields: Record<string, string>, cookie: string) {
  const response = await postForm(path, fields, cookie)
  expect(response.status).toBe(302)
  const location = response.headers.get('location') ?? ''
  const match = /^\/payments\/sandbox\/([^/?]+)$/.exec(location)
  expect(match, location).not.toBeNull()
  return match![1]!
}

export const buyPackage = (cookie: string, packageId = 'bids-50') =>
  checkout('/topup', { intent: 'buy', packageId }, cookie)

// What a payer does and sees in the browser.

/** On /topup, "Купить сейчас" of the package card named so (e.g. '50 ставок'). */
export const choosePackage = (page: Page, name: string) =>
  page
    .getByRole('article', { name, exact: true })
    .getByRole('button', { name: 'Купить сейчас' })
    .click()

/** On the provider's page, the button named so pressed, and the payer back on /topup?payment=. */
export async function answerProvider(page: Page, button: string) {
  await page.getByRole('button', { name: button }).click()
  await page.waitForURL(/\/topup\?payment=/)
}

/** The text of the payment's result, as /topup?payment= shows it on the payer's return. */
export const paymentResult = (page: Page) =>
  page.getByRole('status').filter({ hasText: 'Результат оплаты' }).textContent()

/** The profile's card of an order, by the item's title. */
export const orderCard = (page: Page, title: string) =>
  page.getByRole('region', { name: 'Мои заказы' }).getByRole('listitem').filter({ hasText: title })

export type Event = {
  payment_id: string
  transaction_id?: string
  status?: 'paid' | 'failed' | 'cancelled'
  amount?: string
  currency?: string
}

export const txn = () => `e2e_${randomBytes(8).toString('hex')}`
const hmac = (secret: string, body: string) =>
  createHmac('sha256', secret).update(body).digest('hex')

export async function webhook(
  event: Event | string,
  { secret = SECRET, signature }: { secret?: string; signature?: string | null } = {},
  provider = 'sandbox',
) {
  const body =
    typeof event === 'string'
      ? event
      : JSON.stringify({
          event: 'payment.updated',
          transaction_id: txn(),
          status: 'paid',
          amount: '750.00',
          currency: 'KGS',
          ...event,
        })
  const sig = signature === undefined ? `sha256=${hmac(secret, body)}` : signature
  const response = await fetch(`${base()}/api/payments/webhook/${provider}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      // A provider's server names a foreign origin (or none); the webhook must not care.
      Origin: 'https://pay.example.kg',
      ...(sig === null ? {} : { 'X-Sandbox-Signature': sig }),
    },
    body,
  })
  return { status: response.status, json: (await response.json()) as Record<string, unknown> }
}
