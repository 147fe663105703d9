import { z } from 'zod'
import { ADMIN_BALANCE_MAX } from '../../engine/types.ts'
import { TIME_ZONE_OFFSET } from '~/utils/dates.ts'
import {
  emailSchema,
  NAME_MAX,
  phoneSchema,
  PHONE_PREFIX,
  usernameSchema,
} from '~/validation/user.ts'

// The admin forms' rules (docs/rules.md#admin-screens), shared by the /admin pages and /api/admin.
// Messages are i18n keys of the "admin" namespace. Money arrives in som and leaves in minor units.

export const MAX_SOM = 100_000_000
/** An id an admin page puts in a URL or a form (auction, bot, user). */
export const adminIdSchema = z.string().min(1).max(64)
const text = (max: number, required = 'errors.required') =>
  z.preprocess(
    (value) => (typeof value === 'string' ? value.trim() : value),
    z
      .string({ required_error: required, invalid_type_error: 'errors.invalid' })
      .max(max, 'errors.tooLong'),
  )
const optionalText = (max: number) =>
  z.preprocess(
    (value) =>
      value === undefined || value === null || (typeof value === 'string' && !value.trim())
        ? null
        : value,
    text(max).nullable(),
  )

/** A sum in som with at most two decimals -> minor units. */
const som = (required: string) =>
  z.preprocess(
    (value) => {
      if (typeof value === 'string') {
        const cleaned = value.replace(/\s/g, '').replace(',', '.')
        return cleaned === '' ? undefined : Number(cleaned)
      }
      return value
    },
    z
      .number({ required_error: required, invalid_type_error: 'errors.money' })
      .finite('errors.money')
      .min(0, 'errors.money')
      .max(MAX_SOM, 'errors.money')
      .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, 'errors.money')
      .transform((n) => Math.round(n * 100)),
  )

const checkbox = z.preprocess(
  (value) => value === true || value === 'true' || value === 'on' || value === '1',
  z.boolean(),
)

/**
 * A start time: ISO with an offset (the API) or a `datetime-local` value (the form), which is
 * read as Bishkek time.
 */
export const startTimeSchema = z.preprocess(
  (value) => {
    if (typeof value !== 'string' || !value.trim()) return undefined
    const local = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/.test(value.trim())
    const date = new Date(local ? `${value.trim()}${TIME_ZONE_OFFSET}` : value.trim())
    return Number.isNaN(date.getTime()) ? 'invalid' : date
  },
  z.date({ required_error: 'errors.required', invalid_type_error: 'errors.startTime' }),
)

const auctionFields = {
  title: text(200).pipe(z.string().min(1, 'errors.required')),
  description: optionalText(5000),
  imageUrl: optionalText(2000).refine(
    (value) => value === null || /^https?:\/\/\S+$/i.test(value) || /^\/\S+$/.test(value),
    'errors.imageUrl',
  ),
  retailPrice: som('errors.required').refine((minor) => minor > 0, 'errors.money'),
  startTime: startTimeSchema,
  condition: optionalText(100),
  category: optionalText(100),
  estimatedValue: z.preprocess(
    (value) => (value === '' || value === null ? undefined : value),
    som('errors.money').optional(),
  ),
  featured: checkbox,
}

/**
 * How many bids a bid-package auction holds: a whole number from 1. Left out or empty, the model
 * takes what the retail price buys (packageBidsFor in app/utils/bid-packages.ts).
 */
const packageBids = z.preprocess(
  (value) => {
    if (typeof value !== 'string') return value ?? undefined
    return value.trim() === '' ? undefined : Number(value.trim())
  },
  z
    .number({ invalid_type_error: 'errors.packageBids' })
    .int('errors.packageBids')
    .min(1, 'errors.packageBids')
    .max(ADMIN_BALANCE_MAX, 'errors.packageBids')
    .optional(),
)

export const auctionCreateSchema = z
  .object({ ...auctionFields, isBidPackage: checkbox, packageBids })
  .superRefine((value, ctx) => {
    if (value.packageBids !== undefined && !value.isBidPackage)
      ctx.addIssue({ code: 'custom', path: ['packageBids'], message: 'errors.notBidPackage' })
  })
export type AuctionCreateInput = z.infer<typeof auctionCreateSchema>

/** Editing keeps the kind (bid package or not) of the auction; the model checks packageBids. */
export const auctionUpdateSchema = z.object({ ...auctionFields, packageBids })
export type AuctionUpdateInput = z.infer<typeof auctionUpdateSchema>

const delaySeconds = z.coerce
  .number({ invalid_type_error: 'errors.delay' })
  .int('errors.delay')
  .min(1, 'errors.delay')
  .max(10, 'errors.delay')

/** PUT /api/admin/bot-settings sends one changed field; the page sends them all. */
export const botSettingsSchema = z
  .object({
    enabled: checkbox.optional(),
    minDelay: delaySeconds.optional(),
    maxDelay: delaySeconds.optional(),
    activeBots: z.coerce
      .number({ invalid_type_error: 'errors.activeBots' })
      .int('errors.activeBots')
      .min(0, 'errors.activeBots')
      .max(5, 'errors.activeBots')
      .optional(),
  })
  .strict('errors.invalid')
export type BotSettingsInput = z.infer<typeof botSettingsSchema>

export const botCreateSchema = z.object({
  firstName: text(50, 'errors.botName').pipe(z.string().min(1, 'errors.botName')),
  lastName: text(50, 'errors.botName').pipe(z.string().min(1, 'errors.botName')),
  username: optionalText(30).refine(
    (value) => value === null || /^[\p{L}\p{N}_.-]{3,30}$/u.test(value),
    'errors.username',
  ),
  isActive: z.preprocess((value) => (value === undefined ? true : value), checkbox),
})
export type BotCreateInput = z.infer<typeof botCreateSchema>

export const botAssignSchema = z.object({
  botId: z
    .string({ required_error: 'errors.pickBot' })
    .min(1, 'errors.pickBot')
    .max(64, 'errors.pickBot'),
  bidLimit: z.preprocess(
    (value) => (value === '' || value === undefined || value === null ? 0 : value),
    z.coerce
      .number({ invalid_type_error: 'errors.bidLimit' })
      .int('errors.bidLimit')
      .min(0, 'errors.bidLimit')
      .max(100_000, 'errors.bidLimit'),
  ),
})

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

/** The currencies offered (docs/rules.md#settings), with their symbols (a label: amounts stay in som). */
export const currencies = [
  { currency: 'сом', symbol: 'сом' },
  { currency: 'тенге', symbol: '₸' },
  { currency: 'рубль', symbol: '₽' },
  { currency: 'доллар', symbol: '$' },
  { currency: 'евро', symbol: '€' },
  { currency: 'лари', symbol: '₾' },
  { currency: 'гривна', symbol: '₴' },
] as const

/** A switch of the settings: absent means "unchanged". */
const switchField = z.preprocess(
  (value) =>
    value === undefined ? undefined : value === true || value === 'true' || value === 'on',
  z.boolean().optional(),
)

export const settingsSchema = z.object({
  currency: z.enum(currencies.map((c) => c.currency) as [string, ...string[]], {
    errorMap: () => ({ message: 'errors.currency' }),
  }),
  currencySymbol: text(8).pipe(z.string().min(1, 'errors.required')),
  siteName: text(80).pipe(z.string().min(1, 'errors.required')),
  language: z.enum(['ru', 'en', 'ka', 'ky'], { errorMap: () => ({ message: 'errors.language' }) }),
  headerTagline: optionalText(200).transform((v) => v ?? ''),
  footerDescription: optionalText(1000).transform((v) => v ?? ''),
  contactAddress: optionalText(200).transform((v) => v ?? ''),
  contactPhone: optionalText(30).transform((v) => v ?? ''),
  // A Telegram username, with or without the @; stored without it.
  contactTelegram: optionalText(33)
    .refine((v) => v === null || /^@?[A-Za-z0-9_]{5,32}$/.test(v), 'errors.telegram')
    .transform((v) => v?.replace(/^@/, '') ?? ''),
  contactEmail: optionalText(254)
    .refine((v) => v === null || z.string().email().safeParse(v).success, 'errors.email')
    .transform((v) => v?.toLowerCase() ?? ''),
  // Absent means "unchanged" (the API); the page's form always sends them.
  discloseHouseBids: switchField,
  freeBidsNeedPhone: switchField,
})
export type SettingsInput = z.infer<typeof settingsSchema>
