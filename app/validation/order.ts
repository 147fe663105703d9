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
