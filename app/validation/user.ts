import { z } from 'zod'

// The account rules of docs/rules.md#accounts, shared by pages, the JSON API and the browser.
// Messages are i18n keys (namespace "common", under "validation."), translated where shown.

export const USERNAME_MIN = 3
export const USERNAME_MAX = 30
export const PASSWORD_MIN = 6
export const PASSWORD_MAX = 200
export const NAME_MIN = 2
export const NAME_MAX = 50
export const MIN_AGE = 18
export const PHONE_PREFIX = '+996'
export const PHONE_LENGTH = 13

const required = {
  required_error: 'validation.required',
  invalid_type_error: 'validation.required',
}

export const usernameSchema = z
  .string(required)
  .trim()
  .min(USERNAME_MIN, 'validation.usernameMin')
  .max(USERNAME_MAX, 'validation.usernameMax')
  .regex(/^[\p{L}\p{N}_.-]+$/u, 'validation.usernameChars')

export const emailSchema = z
  .string(required)
  .trim()
  .toLowerCase()
  .max(254, 'validation.email')
  .email('validation.email')

export const passwordSchema = z
  .string(required)
  .min(PASSWORD_MIN, 'validation.passwordMin')
  .max(PASSWORD_MAX, 'validation.passwordMax')

export const phoneSchema = z
  .string(required)
  .trim()
  .regex(/^\+996\d{9}$/, 'validation.phone')

export const loginSchema = z.object({
  username: z
    .string({
      required_error: 'validation.enterLogin',
      invalid_type_error: 'validation.enterLogin',
    })
    .trim()
    .min(1, 'validation.enterLogin')
    .max(254, 'validation.enterLogin'),
  password: z
    .string({
      required_error: 'validation.enterPassword',
      invalid_type_error: 'validation.enterPassword',
    })
    .min(1, 'validation.enterPassword')
    .max(PASSWORD_MAX, 'validation.enterPassword'),
})

export type LoginInput = z.output<typeof loginSchema>

/** The JSON API's register payload (docs/rules.md#calls). */
export const registerSchema = z.object({
  username: usernameSchema,
  email: emailSchema,
  password: passwordSchema,
})
export type RegisterInput = z.output<typeof registerSchema>

/** The page's form also has confirmPassword, checked here and never sent on. */
export const registerFormSchema = registerSchema
  .extend({ confirmPassword: z.string(required) })
  .superRefine((value, ctx) => {
    if (value.confirmPassword !== value.password) {
      ctx.addIssue({
        code: 'custom',
        path: ['confirmPassword'],
        message: 'validation.passwordsMismatch',
      })
    }
  })

/**
 * What the server checks of a registration form: the browser with JavaScript checks the
 * confirmation itself and does not send it; without JavaScript it arrives and is checked here.
 */
export const registerFormServerSchema = registerSchema
  .extend({ confirmPassword: z.string().optional() })
  .superRefine((value, ctx) => {
    if (value.confirmPassword !== undefined && value.confirmPassword !== value.password) {
      ctx.addIssue({
        code: 'custom',
        path: ['confirmPassword'],
        message: 'validation.passwordsMismatch',
      })
    }
  })

/** Whole years between a YYYY-MM-DD birth date and today, month and day included. */
export function ageOn(dateOfBirth: string, today: Date): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(dateOfBirth)
  if (!match) return null
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const date = new Date(Date.UTC(year, month - 1, day))
  if (
    date.getUTCFullYear() !== year ||
    date.getUTCMonth() !== month - 1 ||
    date.getUTCDate() !== day
  )
    return null
  let age = today.getUTCFullYear() - year
  const beforeBirthday =
    today.getUTCMonth() + 1 < month ||
    (today.getUTCMonth() + 1 === month && today.getUTCDate() < day)
  if (beforeBirthday) age -= 1
  return age
}

/** The latest birth date an adult can have today (the date picker's maximum). */
export function latestAdultBirthDate(today: Date): string {
  const year = today.getUTCFullYear() - MIN_AGE
  const month = today.getUTCMonth()
  const day = today.getUTCDate()
  const date = new Date(Date.UTC(year, month, day))
  // 29 February minus 18 years falls on 1 March when that year has no 29th.
  if (date.getUTCMonth() !== month) date.setUTCDate(0)
  return date.toISOString().slice(0, 10)
}

const dateOfBirthSchema = z
  .string(required)
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'validation.dateOfBirth')
  .superRefine((value, ctx) => {
    const age = ageOn(value, new Date())
    if (age === null || age > 120)
      ctx.addIssue({ code: 'custom', message: 'validation.dateOfBirth' })
    else if (age < MIN_AGE) ctx.addIssue({ code: 'custom', message: 'validation.adult' })
  })

export const genders = ['male', 'female', 'other'] as const

/** An optional field: empty text, null or absent all mean "not given" (null). */
function optional<T extends z.ZodTypeAny>(schema: T) {
  return z.preprocess(
    (value) => (value === '' || value === undefined ? null : value),
    schema.nullable(),
  )
}

const nameSchema = (message: string) =>
  z
    .string({ required_error: message, invalid_type_error: message })
    .trim()
    .min(NAME_MIN, message)
    .max(NAME_MAX, 'validation.nameMax')

/**
 * Profile (docs/rules.md#profile): names required (2+), email valid, phone +996XXXXXXXXX optional,
 * date of birth (18+) and gender optional on the profile page.
 */
export const profileSchema = z.object({
  firstName: nameSchema('validation.firstName'),
  lastName: nameSchema('validation.lastName'),
  email: emailSchema,
  // The form starts the field with +996; the prefix alone means "no phone".
  phone: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === PHONE_PREFIX ? null : value),
    optional(phoneSchema),
  ),
  dateOfBirth: optional(dateOfBirthSchema),
  gender: optional(z.enum(genders, { errorMap: () => ({ message: 'validation.gender' }) })),
})
export type ProfileInput = z.infer<typeof profileSchema>

/**
 * The complete-profile modal checks, in this order, each failure one message (docs/rules.md#onboarding).
 * Returns the first failing message key, or null.
 */
export function completeProfileError(
  value: {
    firstName?: string
    lastName?: string
    phone?: string
    dateOfBirth?: string
    gender?: string
  },
  today: Date,
): string | null {
  if (!value.firstName?.trim()) return 'completeProfile.errors.firstName'
  if (!value.lastName?.trim()) return 'completeProfile.errors.lastName'
  const phone = value.phone?.trim() ?? ''
  if (!phone || phone === PHONE_PREFIX) return 'completeProfile.errors.phone'
  if (!value.dateOfBirth) return 'completeProfile.errors.dateOfBirth'
  if (!value.gender) return 'completeProfile.errors.gender'
  const age = ageOn(value.dateOfBirth, today)
  if (age === null || age < MIN_AGE) return 'completeProfile.errors.adult'
  return null
}

/**
 * The phone field's input rule: only digits and +, always starting with +996 (anything else
 * resets to +996), at most 13 characters.
 */
export function normalizePhoneInput(raw: string): string {
  const cleaned = raw.replace(/[^\d+]/g, '')
  if (!cleaned.startsWith(PHONE_PREFIX)) return PHONE_PREFIX
  return cleaned.slice(0, PHONE_LENGTH)
}
