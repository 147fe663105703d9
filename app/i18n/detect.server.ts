import { createCookie } from '@remix-run/node'
import { fallbackLanguage, isLanguage, type Language } from '~/i18n/config.ts'

// The visitor's language as the request tells it: their choice (a cookie), then the browser's
// Accept-Language. Kept apart from i18next.server.ts so that the Express server, which refuses some
// requests before Remix sees them, can read it too.

export const languageCookie = createCookie('lng', {
  path: '/',
  sameSite: 'lax',
  httpOnly: true,
  maxAge: 60 * 60 * 24 * 365,
})

export function pickFromAcceptLanguage(header: string | null): Language | null {
  if (!header) return null
  const ranked = header
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';')
      const q = params.map((p) => /^q=([\d.]+)$/.exec(p.trim())?.[1]).find(Boolean)
      return { primary: tag.toLowerCase().split('-')[0] ?? '', q: q ? Number(q) : 1 }
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q)
  return ranked.map((entry) => entry.primary).find(isLanguage) ?? null
}

/** The visitor's chosen language, as the language cookie says; null when none or not ours. */
export async function languageFromCookie(header: string | null): Promise<Language | null> {
  const value: unknown = await languageCookie.parse(header)
  return isLanguage(value) ? value : null
}

/**
 * The language for an answer given without the site's settings (before Remix, or with
 * Postgres away): the visitor's choice, then Accept-Language, then ru.
 */
export async function visitorLanguage(
  cookie: string | null,
  acceptLanguage: string | null,
): Promise<Language> {
  return (
    (await languageFromCookie(cookie)) ?? pickFromAcceptLanguage(acceptLanguage) ?? fallbackLanguage
  )
}
