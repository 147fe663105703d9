import { createCookie } from '@remix-run/node'
import { fallbackLanguage, isLanguage, type Language } from '~/i18n/config.ts'

// The visitor's language as the request tells it: their choice (a cookie), then the browser's
// Accept-Language. Kept apart from i18n.server.ts so that the Express server, which answers some
// requests before Remix does, can read it too.

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

/** The visitor's chosen language from a raw Cookie header, read without waiting. */
export function languageFromCookie(header: string | null): Language | null {
  const raw = header
    ?.split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith('lng='))
    ?.slice(4)
  if (!raw) return null
  try {
    // An unsigned Remix cookie: URI-encoded base64 of the JSON value.
    const value: unknown = JSON.parse(Buffer.from(decodeURIComponent(raw), 'base64').toString())
    return isLanguage(value) ? value : null
  } catch {
    return null
  }
}

/**
 * The language for an answer given without the site's settings (before Remix, or with
 * Postgres away): the visitor's choice, then Accept-Language, then ru.
 */
export function visitorLanguage(cookie: string | null, acceptLanguage: string | null): Language {
  return languageFromCookie(cookie) ?? pickFromAcceptLanguage(acceptLanguage) ?? fallbackLanguage
}
