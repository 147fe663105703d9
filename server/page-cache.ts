import type { RequestHandler, Response } from 'express'
import { languageFromCookie, pickFromAcceptLanguage } from '../app/i18n/detect.server.ts'

// Pages for visitors who are not logged in are the same for everyone with the same language
// and cookie choices. Each process keeps such a page for PAGE_CACHE_MS and serves it again
// with this request's own CSP nonce, so a crowd arriving at a popular auction costs one render
// per second instead of one per visitor. Anything a page shows that changes faster (price,
// timer, last bidder) is at most that old on arrival; with JavaScript the page's socket sends
// the current state as soon as it joins. See docs/decisions/019-anonymous-page-cache.md.

export const PAGE_CACHE_MS = 1_000
const MAX_PAGES = 500
const MAX_PAGE_BYTES = 1024 * 1024

/** Cookies that make a page someone's own: with one of them, a page is neither kept nor served. */
const PERSONAL_COOKIES = ['__Host-session', 'session', '__Host-toast', 'toast', 'onboarding']
/** Cookies that change what a page shows for anyone: part of the key. */
const CHOICE_COOKIES = ['cookie-consent', 'cookie-preferences']

type Page = {
  at: number
  status: number
  headers: Array<[string, string | number | readonly string[]]>
  body: string
  nonce: string
}

function cookiesOf(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>()
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=')
    if (at > 0) cookies.set(part.slice(0, at).trim(), part.slice(at + 1).trim())
  }
  return cookies
}

/** Headers of a kept page that are the request's own, set afresh on every answer. */
const OWN_HEADERS = new Set(['content-security-policy', 'x-request-id', 'content-length'])

export function anonymousPageCache({ enabled }: { enabled: boolean }): RequestHandler {
  const pages = new Map<string, Page>()
  const rendering = new Map<string, Promise<Page | null>>()
  return (req, res, next) => {
    if (!enabled || req.method !== 'GET' || req.path.startsWith('/api/')) return next()
    // Files (assets, robots.txt) are static already.
    if (/\.[a-z0-9]+$/i.test(req.path)) return next()
    const cookies = cookiesOf(req.headers.cookie)
    if (PERSONAL_COOKIES.some((name) => cookies.has(name))) return next()
    const language =
      languageFromCookie(req.headers.cookie ?? null) ??
      pickFromAcceptLanguage(req.headers['accept-language'] ?? null) ??
      'site'
    const key = [
      req.headers.host ?? '',
      req.originalUrl,
      language,
      ...CHOICE_COOKIES.map((name) => cookies.get(name) ?? ''),
    ].join('\n')
    const nonce = String(res.locals.cspNonce)

    const serve = (page: Page) => {
      for (const [name, value] of page.headers) res.setHeader(name, value)
      res.setHeader('X-Page-Cache', 'hit')
      res.status(page.status).send(page.body.replaceAll(page.nonce, nonce))
    }
    const kept = pages.get(key)
    if (kept && Date.now() - kept.at < PAGE_CACHE_MS) return serve(kept)
    // The same page is being rendered for someone else: it is this visitor's too.
    const underway = rendering.get(key)
    if (underway) {
      underway.then((page) => (page ? serve(page) : next()), next)
      return
    }
    let settle: (page: Page | null) => void = () => {}
    rendering.set(key, new Promise((resolve) => (settle = resolve)))
    keepWhenDone(res, (rendered) => {
      rendering.delete(key)
      if (!rendered) return settle(null)
      const page = { ...rendered, nonce }
      pages.delete(key)
      pages.set(key, page)
      for (const oldest of pages.keys()) {
        if (pages.size <= MAX_PAGES) break
        pages.delete(oldest)
      }
      settle(page)
    })
    next()
  }
}

/**
 * Collects what the app writes; once the answer is sent, hands over a whole HTML page that is
 * the same for every visitor (200, no cookie set), or null for any other answer.
 */
function keepWhenDone(res: Response, done: (page: Omit<Page, 'nonce'> | null) => void) {
  const chunks: Buffer[] = []
  let size = 0
  const collect = (chunk: unknown, encoding?: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return
    const buffer =
      chunk instanceof Uint8Array
        ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
        : Buffer.from(
            String(chunk),
            typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8',
          )
    size += buffer.length
    if (size <= MAX_PAGE_BYTES) chunks.push(buffer)
  }
  const { write, end } = res
  res.write = function (this: Response, ...args: Parameters<Response['write']>) {
    collect(args[0], args[1])
    return write.apply(this, args)
  } as Response['write']
  res.end = function (this: Response, ...args: unknown[]) {
    collect(args[0], args[1])
    return (end as (...a: unknown[]) => Response).apply(this, args)
  } as Response['end']
  let finished = false
  res.on('close', () => {
    if (!finished) done(null)
  })
  res.on('finish', () => {
    finished = true
    const type = String(res.getHeader('content-type') ?? '')
    const whole = res.statusCode === 200 && type.startsWith('text/html') && size <= MAX_PAGE_BYTES
    if (!whole || res.getHeader('set-cookie') !== undefined) return done(null)
    const headers = Object.entries(res.getHeaders())
      .filter(([name]) => !OWN_HEADERS.has(name) && name !== 'content-encoding')
      .map(([name, value]) => [name, value!] as [string, string | number | readonly string[]])
    done({ at: Date.now(), status: 200, headers, body: Buffer.concat(chunks).toString('utf8') })
  })
}
