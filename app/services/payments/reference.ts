/**
 * The ledger reference of a paid bid package's credit: one per payment, so a callback, its
 * retries and the reconciler credit it once (apply-event.server.ts), and the audit finds it
 * (audit.server.ts).
 */
export const paymentReference = (paymentId: string) => `payment:${paymentId}`

/**
 * The ledger reference of the bids taken back when a paid bid package's payment was refunded:
 * one per payment (provider-refund.server.ts), found by the audit (audit.server.ts).
 */
export const refundReference = (paymentId: string) => `payment-refund:${paymentId}`
