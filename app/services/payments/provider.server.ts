// What the site needs from whoever takes the money (docs/payments.md). A provider hosts the
// checkout page and later tells us, through a signed webhook, how the attempt ended.

export type PaymentOutcome = 'paid' | 'failed' | 'cancelled'

/**
 * A webhook, verified and parsed, or a status the provider gave when asked: which of our
 * payments, which provider transaction, how it stands.
 */
export type PaymentEvent = {
  /** Our Payment id, handed to the provider as its order reference at checkout. */
  paymentId: string
  transactionId: string
  /**
   * `refunded`: the money was taken and then (wholly or in part) given back to the payer, by a
   * refund or by the provider taking it back; it never counts as paid (docs/payments.md).
   */
  status: PaymentOutcome | 'refunded'
  /** Minor units of `currency`: what the payment was for. */
  amount: number
  currency: string
  /** `refunded`: minor units given back so far (the whole `amount` or less). */
  refunded?: number
  /** The provider's reason for a failure, when it gives one. */
  reason?: string
  /**
   * Whether the provider lets us refuse this money (Freedom Pay's pg_can_reject):
   * - true: money we cannot use is refused (answered 404/409), and the provider returns it;
   * - false: the payment counts as done whatever we answer, so money we cannot use is accepted
   *   and held for staff to refund (apply-event.server.ts), never refused;
   * - undefined: the provider has no such choice (the sandbox, which moves no money): money of
   *   a payment we know is held, a notification for no payment of ours or for a transaction
   *   that is not this payment's is refused (404/409).
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

/**
 * What the webhook handler decided: its HTTP status and JSON body (docs/payments.md), and
 * whether the notification let us refuse its money (PaymentEvent.canReject; unknown when it
 * could not be read).
 */
export type WebhookAnswer = { status: number; body: unknown; canReject?: boolean }
