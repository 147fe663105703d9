/**
 * The ledger reference of a paid bid package's credit: one per payment, so a callback, its
 * retries and the reconciler credit it once (apply-event.server.ts), and the audit finds it
 * (audit.server.ts).
 */
export const paymentReference = (paymentId: string) => `payment:${paymentId}`
