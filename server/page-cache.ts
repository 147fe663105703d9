import { createHash } from 'node:crypto'
import { promisify } from 'node:util'
import {
  brotliCompress,
  brotliCompressSync,
  constants as zlibConstants,
  gzip,
  gzipSync,
} from 'node:zlib'
import type { Request, RequestHandler, Response } from 'express'
import { languageFromCookie, pickFromAcceptLanguage } from '../app/i18n/detect.server.ts'

// Pages for visitors who are not logged in are the same for everyone with the same language
// and cookie choices. Each process keeps such a page for PAGE_CACHE_MS and serves the same bytes
// again (compressed once, its scripts allowed by their hashes), so a crowd arriving at a
// popular auction costs one render per second instead of one per visitor. Anything a page shows that changes faster (price,
// timer, last bidder) is at most that old on arrival; with JavaScript the page's socket sends
// the current state as soon as it joins. See docs/decisions/019-anonymous-page-cache.md.

export const PAGE_CACHE_MS = 1_000
const MAX_PAGES = 500
const MAX_PAGE_BYTES = 1024 * 1024

/** The session cookie's names (production, development). */
export const SESSION_COOKIES = ['__Host-session', 'session']
/** Cookies that make a page someone's own for one view (a message, a welcome). */
export const ONE_VIEW_COOKIES = ['__Host-toast', 'toast', 'onboarding']
/** Cookies that make a page someone's own: with one of them, a page is neither kept nor served. */
const PERSONAL_COOKIES = [...SESSION_COOKIES, ...ONE_VIEW_COOKIES]
/** Cookies that change what a page shows for anyone: part of the key. */
export const CHOICE_COOKIES = ['cookie-consent', 'cookie-preferences']

type Page = {
  at: number
  /** The page's own headers, with a Content-Security-Policy that names its scripts' hashes. */
  headers: Array<[string, string | number | readonly string[]]>
  /** The page's bytes, and compressed once per encoding when a visitor first asks for it. */
  bodies: Partial<Record<Encoding, Buffer>> & { identity: Buffer }
}
export type Encoding = 'br' | 'gzip' | 'identity'

/** Brotli where the visitor takes it (the smaller of the two), else gzip, else none. */
export function encodingFor(req: Request): Encoding {
  return req.acceptsEncodings('br') ? 'br' : req.acceptsEncodings('gzip') ? 'gzip' : 'identity'
}

export function cookiesOf(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>()
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=')
    if (at > 0) cookies.set(part.slice(0, at).trim(), part.slice(at + 1).trim())
  }
  return cookies
}

/** Headers of an answer that are the request's own, never kept. */
const OWN_HEADERS = new Set([
  'content-security-policy',
  'x-request-id',
  'content-length',
  'content-encoding',
  'etag',
])

/** What makes a page what it is for anyone: host, address, language and cookie choices. */
export function sharedPageKey(req: Request, cookies: Map<string, string>): string {
  const language =
    languageFromCookie(req.headers.cookie ?? null) ??
    pickFromAcceptLanguage(req.headers['accept-language'] ?? null) ??
    'site'
  return [
    req.headers.host ?? '',
    req.originalUrl,
    language,
    ...CHOICE_COOKIES.map((name) => cookies.get(name) ?? ''),
  ].join('\n')
}

export function anonymousPageCache({ enabled }: { enabled: boolean }): RequestHandler {
  const pages = new Map<string, Page>()
  const rendering = new Map<string, Promise<Page | null>>()
  return (req, res, next) => {
    if (!enabled || req.method !== 'GET' || req.path.startsWith('/api/')) return next()
    // Files (assets, robots.txt) are static already.
    if (/\.[a-z0-9]+$/i.test(req.path)) return next()
    const cookies = cookiesOf(req.headers.cookie)
    if (PERSONAL_COOKIES.some((name) => cookies.has(name))) return next()
    const key = sharedPageKey(req, cookies)

    const serve = (page: Page) => {
      for (const [name, value] of page.headers) res.setHeader(name, value)
      res.setHeader('X-Page-Cache', 'hit')
      if (req.fresh) return void res.status(304).end()
      const encoding = encodingFor(req)
      const body = (page.bodies[encoding] ??= compress(page.bodies.identity, encoding))
      if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding)
      res.setHeader('Content-Length', body.length)
      res.status(200).end(body)
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
      const page = rendered && keepable(rendered, String(res.locals.cspNonce))
      if (!page) return settle(null)
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
 * The rendered page as it is served to every later visitor: byte for byte the same, so that it
 * is compressed once. Its inline scripts are allowed by their hashes rather than by the first
 * visitor's nonce (which is taken out of the page); `'strict-dynamic'` lets them load the rest.
 * A page with a script loaded by address is not kept (its nonce would be needed).
 */
function keepable(rendered: Rendered, nonce: string): Page | null {
  const html = rendered.body.toString('utf8')
  const hashes = new Set<string>()
  for (const [, attributes, code] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\ssrc\s*=/i.test(attributes!)) return null
    hashes.add(`'sha256-${createHash('sha256').update(code!).digest('base64')}'`)
  }
  const policy = rendered.policy.replace(`'nonce-${nonce}'`, [...hashes].join(' '))
  if (policy === rendered.policy) return null
  const identity = Buffer.from(html.replaceAll(` nonce="${nonce}"`, ''), 'utf8')
  const etag = `W/"${createHash('sha1').update(identity).digest('base64url')}"`
  return {
    at: rendered.at,
    headers: [
      ...varyByEncoding(rendered.headers),
      ['Content-Security-Policy', policy],
      ['ETag', etag],
    ],
    bodies: { identity },
  }
}

/** The kept page is sent compressed or not by what the visitor accepts: `Vary` says so. */
export function varyByEncoding(headers: Page['headers']): Page['headers'] {
  const vary = headers.find(([name]) => name === 'vary')?.[1]
  const names =
    vary === undefined
      ? []
      : String(vary)
          .split(',')
          .map((name) => name.trim())
  if (names.some((name) => name.toLowerCase() === 'accept-encoding' || name === '*')) return headers
  return [
    ...headers.filter(([name]) => name !== 'vary'),
    ['vary', [...names, 'Accept-Encoding'].join(', ')],
  ]
}

function compress(body: Buffer, encoding: Encoding): Buffer {
  if (encoding === 'br')
    return brotliCompressSync(body, {
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: 6,
        [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    })
  if (encoding === 'gzip') return gzipSync(body)
  return body
}

const brotli = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

/**
 * A page made for one person is compressed for that one answer: quickly (Brotli quality 2,
 * gzip level 3, off the main thread), at ~10 % more bytes than the kept pages' settings.
 */
export function compressForOne(body: Buffer, encoding: Encoding): Promise<Buffer> {
  if (encoding === 'br')
    return brotli(body, {
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: 2,
        [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    })
  if (encoding === 'gzip') return gzipAsync(body, { level: 3 })
  return Promise.resolve(body)
}

type Rendered = {
  at: number
  headers: Page['headers']
  policy: string
  body: Buffer
}

/**
 * Collects what the app writes; once the answer is sent, hands over a whole HTML page that is
 * the same for every visitor (200, no cookie set), or null for any other answer.
 */
function keepWhenDone(res: Response, done: (page: Rendered | null) => void) {
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
      .filter(([name]) => !OWN_HEADERS.has(name))
      .map(([name, value]) => [name, value!] as [string, string | number | readonly string[]])
    const policy = String(res.getHeader('content-security-policy') ?? '')
    done({ at: Date.now(), headers, policy, body: Buffer.concat(chunks) })
  })
}
