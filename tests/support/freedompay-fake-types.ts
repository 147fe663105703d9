// The records of the local Freedom Pay (freedompay-fake.ts): its payments, the money given back
// on them, the callbacks it sent, and how it is told to misbehave.

/** The fields of a message, by name. */
export type Fields = Record<string, string>

/** A field of a message: a value, or fields inside it (nested XML tags, `a[b]=` form fields). */
export type FakeNode = [name: string, value: string | FakeNode[]]

export type FakePayment = {
  /** Freedom Pay's id (pg_payment_id). */
  id: string
  orderId: string
  /** Som with two decimals, as received. */
  amount: string
  currency: string
  description: string
  resultUrl: string
  successUrl: string
  failureUrl: string
  testingMode: string
  /** pg_payment_status: partial (created, not paid), success, failed. */
  status: 'partial' | 'success' | 'failed'
  /** Refunds (revoke.php, the merchant's console): pg_refund_payments. */
  refunds: FakeMoneyBack[]
  /** Freedom Pay took the payment back (a merchant's `rejected`): pg_revoked_payments. */
  revocations: FakeMoneyBack[]
  customer: string
}

/** One refund or revocation of a payment: its own payment id, som given back, when. */
export type FakeMoneyBack = { id: string; amount: string; date: string }

export type CallbackRecord = {
  orderId: string
  fields: Fields
  /** The body as sent (form-encoded, nested fields as `a[b]=`). */
  sent: string
  /** HTTP status of the merchant's answer; 0 when it could not be reached. */
  status: number
  body: string
  /** pg_status of the merchant's XML answer, and whether its pg_sig was right. */
  pgStatus: string | null
  answerSigned: boolean
  /** 0 for the first call, 1… for the retries after an answer that was not 200. */
  attempt: number
}

/** How the next callbacks and answers go; reset with `fake.behave({})`. */
export type FakeBehaviour = {
  /** Send each callback this many times (default 1). */
  repeat?: number
  /** Mark the payment but never call the merchant (a lost callback). */
  dropCallback?: boolean
  /** Sign the callback with a wrong key. */
  wrongSignature?: boolean
  /** Report this amount / currency instead of the payment's. */
  amount?: string
  currency?: string
  /** Report this pg_order_id (a payment the merchant does not know). */
  orderId?: string
  /** pg_can_reject in the callback (default 1). */
  canReject?: '0' | '1'
  /** More fields for the callback, nested or repeated ones too. */
  extra?: FakeNode[]
  /** Never answer API calls (init_payment, get_status3, revoke): the merchant must time out. */
  hang?: boolean
  /** API answers unsigned, or signed with another key (a forger, a man in the middle). */
  answers?: 'signed' | 'unsigned' | 'wrongKey'
  /** get_status3.php answers this error instead of the status (say 600, a general error). */
  statusError?: string
}

/** What the fake's API and payment page (freedompay-fake-api.ts) read and change of the fake. */
export type FakeServer = {
  readonly payments: Map<string, FakePayment>
  readonly secretKey: string
  readonly url: string
  behaviour: FakeBehaviour
  nextId: number
  refund: (payment: FakePayment, amount?: string) => boolean
  decide: (payment: FakePayment, pay: boolean) => Promise<string>
}
