import { randomFillSync } from 'node:crypto'
import type { RequestHandler, Response } from 'express'
import onHeaders from 'on-headers'
import { PRIVATE } from '../app/utils/cache-control.ts'

// Security headers for every response. The Content-Security-Policy carries a per-request nonce
// that Remix puts on its inline scripts; Vite's development server needs inline styles and eval,
// so development gets a looser policy.
// With a tag manager configured, its script and the trackers it talks to are allowed too (it
// is only loaded for visitors who allowed analytics).
const TAG_MANAGER_HOSTS =
  'https://www.googletagmanager.com https://*.google-analytics.com https://*.analytics.google.com'

export function securityHeaders({
  production,
  tagManager = false,
  formTargets = [],
}: {
  production: boolean
  tagManager?: boolean
  /** Other origins a form may lead to (a payment provider's hosted checkout, by redirect). */
  formTargets?: string[]
}): RequestHandler {
  return (req, res, next) => {
    // JSON answers run no script and load nothing: the strictest policy, and no nonce to make.
    if (req.path.startsWith('/api/')) {
      res.setHeader('Content-Security-Policy', API_POLICY)
      setCommonHeaders(res, production)
      return next()
    }
    const nonce = newNonce()
    res.locals.cspNonce = nonce
    const scriptSrc = production
      ? `'self' 'nonce-${nonce}' 'strict-dynamic'`
      : `'self' 'nonce-${nonce}' 'unsafe-eval'`
    const csp = [
      `default-src 'self'`,
      `script-src ${scriptSrc}`,
      `style-src 'self' 'unsafe-inline'`,
      `img-src 'self' data: https:`,
      `font-src 'self' data:`,
      `connect-src 'self' ws: wss:${tagManager ? ` ${TAG_MANAGER_HOSTS}` : ''}`,
      `frame-ancestors 'none'`,
      `form-action 'self'${formTargets.map((origin) => ` ${origin}`).join('')}`,
      `base-uri 'self'`,
      `object-src 'none'`,
    ].join('; ')
    res.setHeader('Content-Security-Policy', csp)
    setCommonHeaders(res, production)
    next()
  }
}

// Nonces are cut from a block of random bytes filled 256 nonces at a time: one call into the
// system's random source per 256 requests instead of one per request, each nonce as random.
const NONCE_BYTES = 16
const randomBlock = Buffer.alloc(NONCE_BYTES * 256)
let nextNonceAt = randomBlock.length
function newNonce() {
  if (nextNonceAt === randomBlock.length) {
    randomFillSync(randomBlock)
    nextNonceAt = 0
  }
  nextNonceAt += NONCE_BYTES
  return randomBlock.toString('base64', nextNonceAt - NONCE_BYTES, nextNonceAt)
}

const API_POLICY = `default-src 'none'; frame-ancestors 'none'`

/** What a document may run, load, be framed by, use and send as referrer: a document's only. */
const DOCUMENT_ONLY_HEADERS = [
  'Content-Security-Policy',
  'X-Frame-Options',
  'Permissions-Policy',
  'Cross-Origin-Opener-Policy',
  'Referrer-Policy',
]

/**
 * serve-static's `setHeaders` for the build's hashed files: a script or a style sheet is no
 * document, so the headers that only a document reads are dropped from it (nosniff and HSTS
 * stay). On a slow phone connection they were ~600 of the ~970 header bytes of each of the
 * forty-odd files a first visit loads (docs/performance.md, eighth round). Any other file (an
 * SVG may be opened as a document) keeps them all.
 */
export function withoutDocumentHeaders(res: { removeHeader(name: string): void }, file: string) {
  if (!/\.(?:js|css)(?:\.br|\.gz)?$/.test(file)) return
  for (const name of DOCUMENT_ONLY_HEADERS) res.removeHeader(name)
}

function setCommonHeaders(res: Response, production: boolean) {
  res.setHeader('X-Content-Type-Options', 'nosniff')
  res.setHeader('X-Frame-Options', 'DENY')
  res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin')
  res.setHeader('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()')
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin')
  if (production) {
    res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains')
  }
  res.removeHeader('X-Powered-By')
}

/**
 * Nothing is kept by a browser or a proxy unless its answer says it may: an answer that names no
 * Cache-Control of its own (a redirect after a form post, a refusal, an error) goes out
 * `private, no-store`. Pages that may be shared say so themselves (app/utils/cache-control.ts),
 * and so do the static files.
 */
export function storeNothingUnlessSaid(): RequestHandler {
  return (_req, res, next) => {
    onHeaders(res, () => {
      if (!res.hasHeader('Cache-Control')) res.setHeader('Cache-Control', PRIVATE)
    })
    next()
  }
}
