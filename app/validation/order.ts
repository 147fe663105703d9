import { z } from 'zod'
import { PHONE_PREFIX, phoneSchema } from '~/validation/user.ts'

// Orders (docs/rules.md#delivery; docs/decisions/016-winner-orders.md), shared by the
// profile form, the JSON API and the admin page. Messages are i18n keys.

export const deliveryMethods = ['pickup', 'courier_bishkek', 'regions'] as const
export type DeliveryMethodName = (typeof deliveryMethods)[number]

/** Minor units added to the price. Regions pay the carrier's rate to the carrier on delivery. */
export const DELIVERY_FEES: Record<DeliveryMethodName, number> = {
  pickup: 0,
  courier_bishkek: 200_00,
  regions: 0,
}

export const ADDRESS_MIN = 5
export const ADDRESS_MAX = 300

export const orderStatuses = [
  'awaiting_payment',
  'paid',
  'shipped',
  'delivered',
  'expired',
  'cancelled',
] as const
export type OrderStatusName = (typeof orderStatuses)[number]

/** What an admin may move an order to from each status: forward only. */
export const ADMIN_TRANSITIONS: Record<OrderStatusName, OrderStatusName[]> = {
  awaiting_payment: ['paid', 'cancelled'],
  paid: ['shipped', 'delivered', 'cancelled'],
  shipped: ['delivered'],
  delivered: [],
  expired: [],
  cancelled: [],
}

/**
 * What an admin may move this order to: a bid package's order (`bids` > 0) is delivered by the
 * credit of its bids once paid, never shipped or delivered by hand
 * (docs/decisions/077-bid-package-orders-credit-bids.md).
 */
export function adminTransitions(status: OrderStatusName, bids: number): OrderStatusName[] {
  const moves = ADMIN_TRANSITIONS[status]
  return bids > 0 ? moves.filter((move) => move !== 'shipped' && move !== 'delivered') : moves
}

const blankToUndefined = (value: unknown) =>
  typeof value === 'string' && (value.trim() === '' || value.trim() === PHONE_PREFIX)
    ? undefined
    : value

/** The delivery choice: an address and a phone are needed unless the item is picked up. */
export const deliverySchema = z
  .object({
    // Every refusal (also an unknown method, whose default message would repeat the input).
    deliveryMethod: z.enum(deliveryMethods, {
      errorMap: () => ({ message: 'orders:validation.method' }),
    }),
    address: z.preprocess(
      blankToUndefined,
      z
        .string({ invalid_type_error: 'orders:validation.address' })
        .trim()
        .min(ADDRESS_MIN, 'orders:validation.address')
        .max(ADDRESS_MAX, 'orders:validation.addressMax')
        .optional(),
    ),
    phone: z.preprocess(blankToUndefined, phoneSchema.optional()),
  })
  .superRefine((value, ctx) => {
    if (value.deliveryMethod === 'pickup') return
    if (!value.address)
      ctx.addIssue({ code: 'custom', path: ['address'], message: 'orders:validation.address' })
    if (!value.phone)
      ctx.addIssue({ code: 'custom', path: ['phone'], message: 'orders:validation.phone' })
  })
export type DeliveryInput = z.infer<typeof deliverySchema>

export const adminOrderStatusSchema = z.object({
  status: z.enum(['paid', 'shipped', 'delivered', 'cancelled'], {
    required_error: 'admin-orders:errors.status',
    invalid_type_error: 'admin-orders:errors.status',
  }),
})

export const REFUND_REASON_MIN = 3
export const REFUND_REASON_MAX = 500

/** An admin's refund of an order's payment: why, in a few words (kept with the payment). */
export const refundSchema = z.object({
  reason: z
    .string({
      required_error: 'admin-orders:errors.reason',
      invalid_type_error: 'admin-orders:errors.reason',
    })
    .trim()
    .min(REFUND_REASON_MIN, 'admin-orders:errors.reason')
    .max(REFUND_REASON_MAX, 'admin-orders:errors.reasonMax'),
})

type PaymentSummary = { status: string; failureReason: string | null }

/** Money that reached an order without paying it: held, or paid when it could not be paid. */
const isStray = (row: PaymentSummary) =>
  row.status === 'held' || (row.status === 'paid' && row.failureReason !== null)

/**
 * Which of an order's payments an admin may refund, the one rule the refund and the admin page
 * share: the payment that paid it (the order is then cancelled), else money that reached the
 * order without paying it (held, or paid too late). Otherwise the refusal's i18n key. A shipped
 * or delivered order (a bid package's is delivered once its bids are credited) keeps what paid
 * it, but a second payment that reached it is still returned.
 */
export function refundCandidate<P extends PaymentSummary>(
  orderStatus: string,
  payments: P[],
): { payment: P; cancelOrder: boolean } | { refused: string } {
  if (orderStatus === 'shipped' || orderStatus === 'delivered') {
    const stray = payments.find(isStray)
    return stray
      ? { payment: stray, cancelOrder: false }
      : { refused: 'admin-orders:errors.refundShipped' }
  }
  if (orderStatus === 'paid') {
    const settling = payments.find((row) => row.status === 'paid' && row.failureReason === null)
    // Without one, an admin marked it paid (cash at pickup): nothing to return online.
    return settling
      ? { payment: settling, cancelOrder: true }
      : { refused: 'admin-orders:errors.refundOffline' }
  }
  const stray = payments.find(isStray)
  if (stray) return { payment: stray, cancelOrder: false }
  return {
    refused: payments.some((row) => row.status === 'refunded')
      ? 'admin-orders:errors.alreadyRefunded'
      : 'admin-orders:errors.refundNotPaid',
  }
}
