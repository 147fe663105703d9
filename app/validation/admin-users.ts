import { z } from 'zod'
import { ADMIN_BALANCE_MAX } from '../../engine/types.ts'
import { optionalText, text } from '~/validation/admin.ts'
import {
  emailSchema,
  NAME_MAX,
  phoneSchema,
  PHONE_PREFIX,
  usernameSchema,
} from '~/validation/user.ts'

// The rules of an admin's edit of a person (docs/rules.md#admin-screens): the account's fields
// and a change of its bid balance.

/** A bid balance: a whole number of bids, 0 to ADMIN_BALANCE_MAX; empty is 0. */
const balanceValue = z.preprocess(
  (value) => (value === '' || value === null ? 0 : value),
  z.coerce
    .number({ invalid_type_error: 'errors.bidBalance' })
    .int('errors.bidBalance')
    .min(0, 'errors.bidBalance')
    .max(ADMIN_BALANCE_MAX, 'errors.bidBalance'),
)

/**
 * A change of a bid balance, in whole bids: + adds, - takes away, never 0. A form may write
 * "+5", "-5" or "−5".
 */
export const balanceDeltaSchema = z.preprocess(
  (value) => {
    if (typeof value !== 'string') return value
    const cleaned = value.replace(/\s/g, '').replace('\u2212', '-')
    if (cleaned === '') return undefined
    return /^[+-]?\d+$/.test(cleaned) ? Number(cleaned) : Number.NaN
  },
  z
    .number({ required_error: 'errors.balanceDelta', invalid_type_error: 'errors.balanceDelta' })
    .int('errors.balanceDelta')
    .min(-ADMIN_BALANCE_MAX, 'errors.balanceDelta')
    .max(ADMIN_BALANCE_MAX, 'errors.balanceDelta')
    .refine((delta) => delta !== 0, 'errors.balanceDelta'),
)

export const BALANCE_REASON_MAX = 200
/** Why an admin changes a balance; kept in the ledger with the change. */
export const balanceReasonSchema = text(BALANCE_REASON_MAX, 'errors.balanceReason').pipe(
  z.string().min(1, 'errors.balanceReason'),
)

/**
 * The key that makes an admin's balance change happen once however often it is sent: the API's
 * Idempotency-Key header, the page form's hidden field (docs/decisions/042-balance-set-once.md).
 */
export const idempotencyKeySchema = z
  .string({ required_error: 'errors.idempotencyKey', invalid_type_error: 'errors.idempotencyKey' })
  .regex(/^[\x21-\x7e]{1,100}$/, 'errors.idempotencyKey')

/**
 * PATCH /api/admin/users/{id}: every field optional; names may be cleared; the phone is
 * +996XXXXXXXXX or empty. The balance changes by `bidBalanceAdjustment` {delta, reason}, or is
 * set by `bidBalance` (recorded as its difference from the balance at that moment), optionally
 * guarded by the balance the caller saw (`expectedBidBalance`, then with `bidBalanceReason`)
 * (docs/decisions/028-balance-adjustments.md, 042-balance-set-once.md).
 */
export const userEditFields = z
  .object({
    username: usernameSchema.optional(),
    firstName: optionalText(NAME_MAX).optional(),
    lastName: optionalText(NAME_MAX).optional(),
    email: emailSchema.optional(),
    phone: z
      .preprocess(
        (value) =>
          value === '' ||
          value === null ||
          (typeof value === 'string' && value.trim() === PHONE_PREFIX)
            ? null
            : value,
        phoneSchema.nullable(),
      )
      .optional(),
    bidBalanceAdjustment: z
      .object(
        { delta: balanceDeltaSchema, reason: balanceReasonSchema },
        { invalid_type_error: 'errors.invalid' },
      )
      .strict('errors.invalid')
      .optional(),
    bidBalance: balanceValue.optional(),
    expectedBidBalance: balanceValue.optional(),
    bidBalanceReason: balanceReasonSchema.optional(),
    role: z.enum(['user', 'admin'], { errorMap: () => ({ message: 'errors.role' }) }).optional(),
  })
  .strict('errors.invalid')

export const userEditSchema = userEditFields.superRefine((input, ctx) => {
  const issue = (path: string, message: string) =>
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: [path], message })
  if (input.bidBalanceAdjustment && input.bidBalance !== undefined) {
    issue('bidBalance', 'errors.balanceBoth')
  } else if (input.bidBalance === undefined) {
    if (input.expectedBidBalance !== undefined) issue('expectedBidBalance', 'errors.invalid')
    if (input.bidBalanceReason !== undefined) issue('bidBalanceReason', 'errors.invalid')
  } else if (input.expectedBidBalance !== undefined && input.bidBalanceReason === undefined) {
    issue('bidBalanceReason', 'errors.balanceReason')
  }
})
export type UserEditInput = z.infer<typeof userEditSchema>
