import type { TFunction } from 'i18next'
import {
  createOrderPayment,
  createPackagePayment,
  recordProviderPaymentId,
  type UserOrder,
} from '~/models/payment.server.ts'
import { log } from '~/utils/logger.server.ts'
import type { BidPackage } from '~/utils/bid-packages.ts'
import { getEnv } from '~/utils/env.server.ts'
import { activeProvider } from './index.server.ts'

// Starting a checkout: the Payment row is written `pending` first, so every attempt is on
// record even when the payer never comes back; then the provider gives the page to go to, and
// its own id of the checkout is kept, to ask about it later (reconcile.server.ts).

/**
 * The origin of the result and return URLs. Production requires PUBLIC_ORIGIN
 * (app/utils/env.server.ts): a request's Host header is whatever its sender wrote, and a
 * provider must never be told to call back someone else's server. Development and tests fall
 * back to the address they were reached at.
 */
export function siteOrigin(request: Request) {
  const env = getEnv()
  if (env.PUBLIC_ORIGIN) return env.PUBLIC_ORIGIN
  if (env.NODE_ENV === 'production') throw new Error('PUBLIC_ORIGIN is required in production')
  return new URL(request.url).origin
}

async function begin(
  request: Request,
  payment: { id: string; amount: number; currency: string },
  description: string,
) {
  const provider = activeProvider()
  const started = await provider.createCheckout({
    paymentId: payment.id,
    amount: payment.amount,
    currency: payment.currency,
    description,
    origin: siteOrigin(request),
  })
  if (started.providerPaymentId)
    await recordProviderPaymentId(payment.id, started.providerPaymentId)
  return started.url
}

export async function startPackageCheckout(
  request: Request,
  userId: string,
  pkg: BidPackage,
  t: TFunction,
): Promise<string> {
  const provider = activeProvider()
  const payment = await createPackagePayment(userId, provider.name, pkg)
  const url = await begin(
    request,
    payment,
    t('payments:checkout.packageDescription', { count: pkg.bids }),
  )
  log.info('checkout started', {
    provider: provider.name,
    paymentId: payment.id,
    purpose: 'package',
  })
  return url
}

export async function startOrderCheckout(
  request: Request,
  userId: string,
  order: UserOrder,
  t: TFunction,
): Promise<string> {
  const provider = activeProvider()
  const payment = await createOrderPayment(userId, provider.name, order)
  const url = await begin(
    request,
    payment,
    t('payments:checkout.orderDescription', { title: order.title }),
  )
  log.info('checkout started', { provider: provider.name, paymentId: payment.id, purpose: 'order' })
  return url
}
