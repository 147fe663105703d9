// The statuses a Payment row can have (prisma/schema/payments.prisma PaymentStatus), for filters.
export const paymentStatuses = [
  'pending',
  'paid',
  'held',
  'refunded',
  'failed',
  'cancelled',
] as const
export type PaymentStatusName = (typeof paymentStatuses)[number]

/** A status filter: null for none (all payments) and for a value that is no status. */
export function paymentStatusParam(value: string | null): PaymentStatusName | null {
  return (paymentStatuses as readonly string[]).includes(value ?? '')
    ? (value as PaymentStatusName)
    : null
}
