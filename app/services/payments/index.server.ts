import { getEnv } from '~/utils/env.server.ts'
import { FREEDOMPAY, freedomPayProvider } from './freedompay.server.ts'
import type { PaymentProvider } from './provider.server.ts'
import { sandboxProvider } from './sandbox.server.ts'

// The registry of payment providers. A new provider is one file implementing PaymentProvider
// and one line here; PAYMENT_PROVIDER picks the one new checkouts go to (docs/payments.md).
// A factory gives null for a provider this deployment has no settings for (its webhook is 404).
const factories: Record<string, () => PaymentProvider | null> = {
  sandbox: () => sandboxProvider(),
  [FREEDOMPAY]: () =>
    getEnv().FREEDOMPAY_MERCHANT_ID && getEnv().FREEDOMPAY_SECRET_KEY ? freedomPayProvider() : null,
}

const instances = new Map<string, PaymentProvider>()

/** A provider by its name in the webhook URL; null for a name we do not know. */
export function getProvider(name: string): PaymentProvider | null {
  if (!Object.hasOwn(factories, name)) return null
  let provider = instances.get(name)
  if (!provider) {
    provider = factories[name]!() ?? undefined
    if (!provider) return null
    instances.set(name, provider)
  }
  return provider
}

/** The provider new checkouts are opened with. */
export function activeProvider(): PaymentProvider {
  const provider = getProvider(getEnv().PAYMENT_PROVIDER)
  if (!provider) throw new Error(`payment provider ${getEnv().PAYMENT_PROVIDER} is not registered`)
  return provider
}

export type { PaymentEvent, PaymentOutcome, PaymentProvider } from './provider.server.ts'
