// The account rules of docs/rules.md#accounts that need no schema library: limits, the age and
// phone rules and the complete-profile check. Re-exported by user.ts, which adds the zod schemas;
// a component that needs only these imports this file and keeps zod out of its page's JavaScript.

export const USERNAME_MIN = 3
export const USERNAME_MAX = 30
export const PASSWORD_MIN = 6
export const PASSWORD_MAX = 200
export const NAME_MIN = 2
export const NAME_MAX = 50
export const MIN_AGE = 18
export const PHONE_PREFIX = '+996'
export const PHONE_LENGTH = 13

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

export const genders = ['male', 'female', 'other'] as const

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
