import { z } from 'zod'
import { ADMIN_BALANCE_MAX } from '../../engine/types.ts'
import { TIME_ZONE_OFFSET } from '~/utils/dates.ts'
import { checkbox, optionalText, som, text } from '~/validation/admin.ts'

// The rules of an admin's auction form (docs/rules.md#admin-screens), for /admin and /api/admin.

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

/** The longest "lock after" an auction may have: a day (docs/rules.md#fair-play-auctions). */
export const LOCK_AFTER_MAX_MINUTES = 1440

/**
 * Fair play (docs/rules.md#fair-play-auctions): only people who have never won may bid. Absent
 * means "unchanged" on an edit and off on creation; the form sends a hidden "false" before its
 * checkbox (both arrive when it is ticked) and nothing at all while it is disabled.
 */
const beginnerOnly = z.preprocess(
  (value) => {
    if (value === undefined) return undefined
    const sent: unknown[] = Array.isArray(value) ? value : [value]
    if (sent.some((v) => v === true || v === 'true' || v === 'on' || v === '1')) return true
    if (sent.every((v) => v === false || v === 'false' || v === '0' || v === '')) return false
    return value
  },
  z.boolean({ invalid_type_error: 'errors.beginnerOnly' }).optional(),
)

/**
 * Fair play: once live this many minutes, only people who already bid on it may bid; a whole
 * number from 1 to a day. Empty or null: it never closes; absent: "unchanged" on an edit.
 */
const lockAfterMinutes = z.preprocess(
  (value) => {
    if (typeof value !== 'string') return value
    const text = value.trim()
    return text === '' ? null : /^\d+$/.test(text) ? Number(text) : Number.NaN
  },
  z
    .number({ invalid_type_error: 'errors.lockAfterMinutes' })
    .int('errors.lockAfterMinutes')
    .min(1, 'errors.lockAfterMinutes')
    .max(LOCK_AFTER_MAX_MINUTES, 'errors.lockAfterMinutes')
    .nullable()
    .optional(),
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
  beginnerOnly,
  lockAfterMinutes,
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
