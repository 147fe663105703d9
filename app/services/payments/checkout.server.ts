import type { TFunction } from 'i18next'
import {
  createOrderPayment,
  createPackagePayment,
  type UserOrder,
} from '~/models/payment.server.ts'
import { log } from '~/services/logger.server.ts'
import type { BidPackage } from '~/utils/bid-packages.ts'
import { getEnv } from '~/utils/env.server.ts'
import { activeProvider } from './index.server.ts'

// Starting a checkout: the Payment row is written `pending` first, so every attempt is on
// record even when the payer never comes back; then the provider gives the page to go to.

function siteOrigin(request: Request) {
  return getEnv().PUBLIC_ORIGIN ?? new URL(request.url).origin
}

export async function startPackageCheckout(
  request: Request,
  userId: string,
  pkg: BidPackage,
  t: TFunction,
): Promise<string> {
  const provider = activeProvider()
  const payment = await createPackagePayment(userId, provider.name, pkg)
  const { url } = await provider.createCheckout({
    paymentId: payment.id,
    amount: payment.amount,
    currency: payment.currency,
    description: t('payments:checkout.packageDescription', { count: pkg.bids }),
    origin: siteOrigin(request),
  })
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
  const { url } = await provider.createCheckout({
    paymentId: payment.id,
    amount: payment.amount,
    currency: payment.currency,
    description: t('payments:checkout.orderDescription', { title: order.title }),
    origin: siteOrigin(request),
  })
  log.info('checkout started', { provider: provider.name, paymentId: payment.id, purpose: 'order' })
  return url
}
