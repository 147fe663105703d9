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
  /**
   * The provider lets us refuse this money (Freedom Pay's pg_can_reject=1): money we cannot use
   * is then refused and returned by the provider instead of held for staff.
   */
  canReject?: boolean
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

export type CheckoutStarted = {
  /** Where to send the payer. */
  url: string
  /** The provider's own id of this checkout, kept on the Payment to ask about it later. */
  providerPaymentId?: string
}

/** One of our payments, as a provider is asked about it. */
export type StatusQuery = {
  id: string
  /** The provider's id given at checkout (null: the checkout never got one). */
  providerPaymentId: string | null
  /** The transaction id a notification gave, if one came. */
  transactionId: string | null
}

/** How the provider sees one of our payments when asked (reconciliation). */
export type PaymentStatusReport =
  /** The provider knows it: still open, or ended as an event would have said. */
  | { known: true; status: 'pending' }
  | { known: true; status: 'settled'; event: PaymentEvent }
  /** The provider has no record of it (the payer never reached its page), or keeps none. */
  | { known: false }

export type RefundRequest = {
  paymentId: string
  /** The provider's id of the paid transaction. */
  transactionId: string | null
  /** Minor units of `currency`: the whole amount paid. */
  amount: number
  currency: string
  /** Why, as the admin gave it (shown to the provider where it takes one). */
  reason: string
}

export type RefundResult = { ok: true; refundId: string } | { ok: false; reason: string }

export interface PaymentProvider {
  readonly name: string
  /** Where to send the payer: the provider's hosted checkout for this payment. */
  createCheckout(request: CheckoutRequest): Promise<CheckoutStarted>
  /** Verifies the signature over the raw body, then parses it; never throws on bad input. */
  parseWebhook(rawBody: string, headers: Headers): WebhookParse
  /** Asks the provider how a payment stands; throws when the provider cannot be reached. */
  getStatus(payment: StatusQuery): Promise<PaymentStatusReport>
  /** Least pause between two status questions to this provider (reconcile.server.ts). */
  readonly statusPauseMs?: number
  /** Returns a paid payment's money to the payer; throws when the provider cannot be reached. */
  refund(request: RefundRequest): Promise<RefundResult>
  /**
   * Shapes our answer to its webhook when its protocol wants one of its own (Freedom Pay wants
   * signed XML). Gets the handler's JSON answer (status and body); without it that is sent.
   */
  answerWebhook?(answer: WebhookAnswer): Response
}

/** What the webhook handler decided: its HTTP status and JSON body (docs/payments.md). */
export type WebhookAnswer = { status: number; body: unknown }
