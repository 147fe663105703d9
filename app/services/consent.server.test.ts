import { describe, expect, test } from 'vitest'
import { consentCookies, getConsent } from './consent.server.ts'

function requestWith(cookies: string[]) {
  const header = cookies.map((c) => c.split(';')[0]).join('; ')
  return new Request('http://localhost/', { headers: { Cookie: header } })
}

const none = { analytics: false, marketing: false, functional: false }

describe('cookie consent', () => {
  test('no stored choice shows the banner', () => {
    expect(getConsent(new Request('http://localhost/'))).toBeNull()
  })

  test('accept all stores "accepted" with every flag on', () => {
    expect(getConsent(requestWith(consentCookies('accept-all', none, false)))).toEqual({
      value: 'accepted',
      preferences: { necessary: true, analytics: true, marketing: true, functional: true },
    })
  })

  test('only necessary and close store their values with every optional flag off', () => {
    expect(getConsent(requestWith(consentCookies('necessary-only', none, false)))).toEqual({
      value: 'necessary-only',
      preferences: { necessary: true, ...none },
    })
    expect(getConsent(requestWith(consentCookies('reject', none, false)))?.value).toBe('rejected')
  })

  test('a custom choice keeps exactly the ticked categories', () => {
    const consent = getConsent(
      requestWith(
        consentCookies('custom', { analytics: true, marketing: false, functional: false }, false),
      ),
    )
    expect(consent).toEqual({
      value: 'accepted',
      preferences: { necessary: true, analytics: true, marketing: false, functional: false },
    })
  })

  test('reset forgets both cookies', () => {
    const cookies = consentCookies('reset', none, true)
    expect(cookies).toHaveLength(2)
    for (const cookie of cookies) expect(cookie).toMatch(/Max-Age=0;.*Secure/)
  })

  test('tampered cookies never turn optional categories on', () => {
    const request = new Request('http://localhost/', {
      headers: {
        Cookie: 'cookie-consent=rejected; cookie-preferences=%7B%22analytics%22%3Atrue%7D',
      },
    })
    expect(getConsent(request)?.preferences.analytics).toBe(false)
    const garbage = new Request('http://localhost/', {
      headers: { Cookie: 'cookie-consent=maybe; cookie-preferences=%E0%A4%A' },
    })
    expect(getConsent(garbage)).toBeNull()
  })
})
