import { z } from 'zod'
import { optionalText, text } from '~/validation/admin.ts'

// The rules of the site's settings form (docs/rules.md#settings), for /admin/settings and
// /api/admin/settings.

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

/** The highest win limit (docs/rules.md#fair-play-auctions). */
export const WIN_LIMIT_MAX = 100

/**
 * The win limit: how many auctions one person may win in 7 days, 0 (or empty) for no limit.
 * Absent means "unchanged" (the API); the page's form always sends it.
 */
const winLimit = z.preprocess(
  (value) => {
    if (typeof value !== 'string') return value
    const text = value.trim()
    return text === '' ? 0 : /^\d+$/.test(text) ? Number(text) : Number.NaN
  },
  z
    .number({ invalid_type_error: 'errors.winLimit' })
    .int('errors.winLimit')
    .min(0, 'errors.winLimit')
    .max(WIN_LIMIT_MAX, 'errors.winLimit')
    .optional(),
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
  winLimit,
})
export type SettingsInput = z.infer<typeof settingsSchema>
