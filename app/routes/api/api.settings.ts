import { createHash } from 'node:crypto'
import type { LoaderFunctionArgs } from '@remix-run/node'
import { getSettings } from '~/models/settings.server.ts'

// docs/rules.md#settings: the public settings. Any cache (a browser, a proxy, the server's own
// page cache) must ask again every time (`no-cache`); the ETag makes that a 304 without a body
// while nothing changed, so an admin's save is seen at once.
export async function loader({ request }: LoaderFunctionArgs) {
  const settings = await getSettings()
  const body = JSON.stringify({
    currencySymbol: settings.currencySymbol,
    currency: settings.currency,
    siteName: settings.siteName,
    language: settings.language,
    headerTagline: settings.headerTagline,
    footerDescription: settings.footerDescription,
  })
  // Weak: the same settings may be sent compressed in different ways.
  const etag = `W/"${createHash('sha1').update(body).digest('base64url')}"`
  const headers = { 'Cache-Control': 'public, no-cache', ETag: etag }
  if (matches(request.headers.get('If-None-Match'), etag)) {
    return new Response(null, { status: 304, headers })
  }
  return new Response(body, {
    headers: { ...headers, 'Content-Type': 'application/json; charset=utf-8' },
  })
}

/** If-None-Match against the ETag, compared weakly (RFC 9110, 13.1.2). */
function matches(header: string | null, etag: string): boolean {
  if (!header) return false
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '')
  return header.trim() === '*' || header.split(',').some((tag) => opaque(tag) === opaque(etag))
}
