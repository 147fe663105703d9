/** Merges several header sets into one; Set-Cookie values are kept side by side. */
export function combineHeaders(...all: Array<HeadersInit | null | undefined>): Headers {
  const combined = new Headers()
  for (const headers of all) {
    if (!headers) continue
    for (const [key, value] of new Headers(headers).entries()) {
      combined.append(key, value)
    }
  }
  return combined
}

/**
 * A same-site path to go back to after a form post, or the fallback. Only a path that starts with
 * a single `/` followed by something other than `/`, `\` or a control character is kept, both as
 * given and once %-decoded, and with no control character anywhere (browsers drop tabs and line
 * breaks from an address, so `/<tab>/evil.example` would become `//evil.example`). Whatever is
 * kept must also resolve to this site. So a redirect is never open.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = '/') {
  if (typeof to !== 'string' || !isSitePath(to)) return fallback
  let decoded: string
  try {
    decoded = decodeURIComponent(to)
  } catch {
    return fallback
  }
  return isSitePath(decoded) ? to : fallback
}

const SITE = 'http://site.invalid'
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const CONTROL = /[\u0000-\u001f\u007f]/

function isSitePath(path: string) {
  if (!/^\/(?![/\\])/.test(path) || CONTROL.test(path)) return false
  try {
    return new URL(path, SITE).origin === SITE
  } catch {
    return false
  }
}

/** A `?page=` value: a whole number from 1; anything else is page 1. */
export function pageParam(value: string | null): number {
  const page = Number.parseInt(value ?? '1', 10)
  return Number.isSafeInteger(page) && page >= 1 ? page : 1
}
