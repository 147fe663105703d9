import type { HeadersFunction } from '@remix-run/node'

// How long a page may be kept by a shared cache (the server's own, nginx, a CDN), by HTTP's
// rules alone (docs/decisions/024-page-caching-by-http-rules.md). The root loader marks every
// answer that depends on the visitor (a session, a message to show once, the onboarding) as
// `private, no-store`; a route whose page is the same for every visitor of the same language and
// cookie choices opts in with `publicPage`.

/** Nobody but the visitor's own browser may keep it, and not even that. */
export const PRIVATE = 'private, no-store'

/** What the root's answers vary by: the cookies and the browser's language. */
export const PAGE_VARY = 'Cookie, Accept-Language'

/**
 * A route's `headers` export for a page anyone may be shown the same copy of: kept by a shared
 * cache for `seconds` and served stale for as long again while it is rendered anew; browsers
 * ask again every time. A personal page (the root said so) stays private.
 */
export function publicPage(seconds: number): HeadersFunction {
  return ({ parentHeaders }) => {
    const parent = parentHeaders.get('Cache-Control')
    return {
      Vary: PAGE_VARY,
      'Cache-Control':
        parent === PRIVATE
          ? PRIVATE
          : `public, max-age=0, s-maxage=${seconds}, stale-while-revalidate=${seconds}`,
    }
  }
}
