import { z } from 'zod'
import {
  MIN_AGE,
  NAME_MAX,
  NAME_MIN,
  PASSWORD_MAX,
  PASSWORD_MIN,
  PHONE_PREFIX,
  USERNAME_MAX,
  USERNAME_MIN,
  ageOn,
  genders,
} from '~/validation/user-rules.ts'

// The account rules of docs/rules.md#accounts, shared by pages, the JSON API and the browser.
// Messages are i18n keys (namespace "common", under "validation."), translated where shown.
// The rules without zod are in user-rules.ts, for the pages that need only them.

export * from '~/validation/user-rules.ts'

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

const dateOfBirthSchema = z
  .string(required)
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'validation.dateOfBirth')
  .superRefine((value, ctx) => {
    const age = ageOn(value, new Date())
    if (age === null || age > 120)
      ctx.addIssue({ code: 'custom', message: 'validation.dateOfBirth' })
    else if (age < MIN_AGE) ctx.addIssue({ code: 'custom', message: 'validation.adult' })
  })

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
