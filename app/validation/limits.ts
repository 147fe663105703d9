import { z } from 'zod'

// What a person may ask of their limits (docs/rules.md#limits-a-bidder-sets), from the profile's
// forms and from PUT /api/users/limits alike. Messages are i18n keys of "common".

export const DAILY_BID_LIMIT_MAX = 10_000
/** Six months. */
export const SELF_EXCLUDE_DAYS_MAX = 183

/** The exclusion periods the profile offers, in days (1 day to 6 months). */
export const SELF_EXCLUDE_CHOICES = [1, 7, 30, 90, SELF_EXCLUDE_DAYS_MAX] as const

/** A form's empty field is "no limit"; JSON says it with null. */
const emptyIsNull = (value: unknown) => (value === '' ? null : value)

export const limitsSchema = z
  .object({
    dailyBidLimit: z.preprocess(
      emptyIsNull,
      z
        .number({ invalid_type_error: 'limits.errors.dailyBidLimit' })
        .int('limits.errors.dailyBidLimit')
        .min(1, 'limits.errors.dailyBidLimit')
        .max(DAILY_BID_LIMIT_MAX, 'limits.errors.dailyBidLimit')
        .nullable()
        .optional(),
    ),
    selfExcludeDays: z
      .number({ invalid_type_error: 'limits.errors.selfExcludeDays' })
      .int('limits.errors.selfExcludeDays')
      .min(0, 'limits.errors.selfExcludeDays')
      .max(SELF_EXCLUDE_DAYS_MAX, 'limits.errors.selfExcludeDays')
      .optional(),
  })
  .strict('limits.errors.unknown')
  .refine(
    (change) => change.dailyBidLimit !== undefined || change.selfExcludeDays !== undefined,
    'limits.errors.nothing',
  )

export type LimitsInput = z.output<typeof limitsSchema>

/** A form's fields as the schema takes them: numbers from text, what is absent left out. */
export function limitsFromForm(form: FormData): Record<string, unknown> {
  const input: Record<string, unknown> = {}
  const number = (value: FormDataEntryValue) => {
    const text = String(value).trim()
    return text === '' ? '' : /^-?\d+$/.test(text) ? Number(text) : text
  }
  const limit = form.get('dailyBidLimit')
  if (limit !== null) input.dailyBidLimit = number(limit)
  const days = form.get('selfExcludeDays')
  if (days !== null) input.selfExcludeDays = number(days)
  return input
}
