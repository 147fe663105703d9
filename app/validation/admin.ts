import { z } from 'zod'

// The admin forms' rules (docs/rules.md#admin-screens), shared by the /admin pages and /api/admin:
// what every form's fields are made of. Each screen's own rules are beside: admin-auctions.ts,
// admin-bots.ts, admin-users.ts, admin-settings.ts. Messages are i18n keys of the "admin"
// namespace. Money arrives in som and leaves in minor units.

export const MAX_SOM = 100_000_000
/** An id an admin page puts in a URL or a form (auction, bot, user). */
export const adminIdSchema = z.string().min(1).max(64)
/** A trimmed text of at most `max` characters; `required` is the message when it is missing. */
export const text = (max: number, required = 'errors.required') =>
  z.preprocess(
    (value) => (typeof value === 'string' ? value.trim() : value),
    z
      .string({ required_error: required, invalid_type_error: 'errors.invalid' })
      .max(max, 'errors.tooLong'),
  )
/** A trimmed text of at most `max` characters, or null when empty. */
export const optionalText = (max: number) =>
  z.preprocess(
    (value) =>
      value === undefined || value === null || (typeof value === 'string' && !value.trim())
        ? null
        : value,
    text(max).nullable(),
  )

/** A sum in som with at most two decimals -> minor units. */
export const som = (required: string) =>
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

/** A checkbox or a JSON boolean: on, true or 1 is true. */
export const checkbox = z.preprocess(
  (value) => value === true || value === 'true' || value === 'on' || value === '1',
  z.boolean(),
)
