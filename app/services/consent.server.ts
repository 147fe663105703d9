import { z } from 'zod'
import {
  consentValues,
  type Consent,
  type ConsentValue,
  type CookiePreferences,
} from '~/types/consent.ts'

// Cookie consent (docs/rules.md#cookies-and-consent). Stored as cookies rather than local storage so the
// server can render the banner, and honour the choice, for browsers without JavaScript.

export const CONSENT_COOKIE = 'cookie-consent'
export const PREFERENCES_COOKIE = 'cookie-preferences'
const MAX_AGE = 60 * 60 * 24 * 365

const preferencesSchema = z.object({
  analytics: z.boolean().catch(false),
  marketing: z.boolean().catch(false),
  functional: z.boolean().catch(false),
})

function readCookies(request: Request): Map<string, string> {
  const map = new Map<string, string>()
  for (const part of (request.headers.get('Cookie') ?? '').split(';')) {
    const index = part.indexOf('=')
    if (index < 0) continue
    const name = part.slice(0, index).trim()
    try {
      map.set(name, decodeURIComponent(part.slice(index + 1).trim()))
    } catch {
      // A malformed cookie is treated as absent.
    }
  }
  return map
}

export function getConsent(request: Request): Consent {
  const cookies = readCookies(request)
  const value = cookies.get(CONSENT_COOKIE)
  if (!value || !(consentValues as readonly string[]).includes(value)) return null
  let preferences: CookiePreferences = {
    necessary: true,
    analytics: false,
    marketing: false,
    functional: false,
  }
  try {
    const parsed = preferencesSchema.safeParse(JSON.parse(cookies.get(PREFERENCES_COOKIE) ?? '{}'))
    if (parsed.success) preferences = { necessary: true, ...parsed.data }
  } catch {
    // Unreadable preferences: keep the safe defaults (everything optional off).
  }
  if (value !== 'accepted' && value !== 'necessary-only') {
    preferences = { necessary: true, analytics: false, marketing: false, functional: false }
  }
  return { value: value as ConsentValue, preferences }
}

export const consentChoices = ['accept-all', 'necessary-only', 'reject', 'custom', 'reset'] as const
export type ConsentChoice = (typeof consentChoices)[number]

function serialize(name: string, value: string, maxAge: number, secure: boolean) {
  return `${name}=${encodeURIComponent(value)}; Path=/; Max-Age=${maxAge}; SameSite=Lax${secure ? '; Secure' : ''}`
}

/**
 * The Set-Cookie headers for a choice made in the banner. "custom" takes the categories ticked
 * in the settings panel; "reset" (the footer button) forgets the choice so the banner returns.
 */
export function consentCookies(
  choice: ConsentChoice,
  custom: Omit<CookiePreferences, 'necessary'>,
  secure: boolean,
): string[] {
  if (choice === 'reset') {
    return [serialize(CONSENT_COOKIE, '', 0, secure), serialize(PREFERENCES_COOKIE, '', 0, secure)]
  }
  const all = choice === 'accept-all'
  const preferences: CookiePreferences =
    choice === 'custom'
      ? { necessary: true, ...custom }
      : { necessary: true, analytics: all, marketing: all, functional: all }
  const value: ConsentValue =
    choice === 'reject' ? 'rejected' : choice === 'accept-all' ? 'accepted' : 'necessary-only'
  const stored: ConsentValue =
    choice === 'custom' && (custom.analytics || custom.marketing || custom.functional)
      ? 'accepted'
      : value
  return [
    serialize(CONSENT_COOKIE, stored, MAX_AGE, secure),
    serialize(PREFERENCES_COOKIE, JSON.stringify(preferences), MAX_AGE, secure),
  ]
}
