// What the site needs from whoever takes the money (docs/payments.md). A provider hosts the
// checkout page and later tells us, through a signed webhook, how the attempt ended.

export type PaymentOutcome = 'paid' | 'failed' | 'cancelled'

/** A webhook, verified and parsed: which of our payments, which provider transaction, how. */
export type PaymentEvent = {
  /** Our Payment id, handed to the provider as its order reference at checkout. */
  paymentId: string
  transactionId: string
  status: PaymentOutcome
  /** Minor units of `currency`. */
  amount: number
  currency: string
  /** The provider's reason for a failure, when it gives one. */
  reason?: string
}

export type WebhookParse =
  | { ok: true; event: PaymentEvent }
  /** signature: missing or wrong (401); malformed: not a body this provider sends (400). */
  | { ok: false; reason: 'signature' | 'malformed'; detail?: string }

export type CheckoutRequest = {
  paymentId: string
  amount: number
  currency: string
  /** What the payer sees on the provider's page. */
  description: string
  /** The site's origin, for absolute return and webhook URLs. */
  origin: string
}

export interface PaymentProvider {
  readonly name: string
  /** Where to send the payer: the provider's hosted checkout for this payment. */
  createCheckout(request: CheckoutRequest): Promise<{ url: string }>
  /** Verifies the signature over the raw body, then parses it; never throws on bad input. */
  parseWebhook(rawBody: string, headers: Headers): WebhookParse
}
