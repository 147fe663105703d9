// A visitor's cookie choice (docs/rules.md#cookies-and-consent), as app/services/consent.server.ts
// reads it from the cookies and the banner shows it.

export const consentValues = ['accepted', 'necessary-only', 'rejected'] as const
export type ConsentValue = (typeof consentValues)[number]

export type CookiePreferences = {
  necessary: true
  analytics: boolean
  marketing: boolean
  functional: boolean
}

export type Consent = { value: ConsentValue; preferences: CookiePreferences } | null
