import { createHash } from 'node:crypto'
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib'
import type { Request, RequestHandler, Response } from 'express'
import CachePolicy from 'http-cache-semantics'
import { LRUCache } from 'lru-cache'

// A shared HTTP cache inside the process, for a single instance without a caching proxy in
// front. It keeps exactly what HTTP lets a shared cache keep, by the answer's own headers
// (http-cache-semantics): a route opts in with `Cache-Control: public, s-maxage=…` (its
// `headers` export, app/utils/cache-control.ts); an answer marked `private` or `no-store`, one
// that sets a cookie, or any other status than 200 is never kept. `Vary` is honoured: a page
// varies by the whole Cookie header, so a visitor with a session cookie never shares a copy.
// docs/decisions/024-page-caching-by-http-rules.md; nginx or a CDN in front follows the same
// headers (docs/operations.md).

/** Query parameters that only say where a visitor came from: they never change a page. */
const TRACKING_PARAMS = /^(utm_.*|fbclid|gclid)$/

/** What the cache keeps at most, counted in bytes of pages (compressed copies included). */
export const DEFAULT_MAX_BYTES = 32 * 1024 * 1024
/** A larger answer is sent but not kept. */
const MAX_ENTRY_BYTES = 1024 * 1024

type Encoding = 'br' | 'gzip' | 'identity'

type Entry = {
  policy: CachePolicy
  /** The answer's headers as kept, with its inline scripts allowed by their hashes. */
  headers: Record<string, string | string[]>
  bodies: Partial<Record<Encoding, Buffer>> & { identity: Buffer }
}

/**
 * The address a page is kept under: host, path and the query sorted, without tracking
 * parameters (`utm_*`, `fbclid`, `gclid`).
 */
export function normalisedUrl(req: Pick<Request, 'originalUrl' | 'headers'>): string {
  const url = new URL(req.originalUrl, 'http://x')
  const params = [...url.searchParams].filter(([name]) => !TRACKING_PARAMS.test(name))
  params.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  const query = new URLSearchParams(params).toString()
  return `${req.headers.host ?? ''}${url.pathname}${query ? `?${query}` : ''}`
}

/** The request as http-cache-semantics reads it, at its normalised address. */
function requestOf(req: Request, url: string): CachePolicy.Request {
  return { url, method: req.method, headers: req.headers }
}

/**
 * The names of the request headers a kept answer varies by, lower case. What is kept is the
 * answer before compression (compressed here for each visitor as they accept), so
 * Accept-Encoding is not among them.
 */
function varyNames(vary: string | undefined): string[] {
  if (!vary) return []
  return vary
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name && name !== 'accept-encoding')
    .sort()
}

/** The cache as middleware, and `clear()` for a change every page shows (the site settings). */
export type PageCache = RequestHandler & { clear: () => void }

export function pageCache({ maxBytes = DEFAULT_MAX_BYTES } = {}): PageCache {
  const entries = new LRUCache<string, Entry>({
    maxSize: maxBytes,
    sizeCalculation: (entry) =>
      Object.values(entry.bodies).reduce((sum, body) => sum + (body?.length ?? 0), 0) || 1,
  })
  /** The headers each address's answers vary by, as its last kept answer said. */
  const varyOf = new LRUCache<string, string[]>({ max: 10_000 })
  /** Answers being rendered: a visitor asking for the same page meanwhile waits for it. */
  const rendering = new Map<string, Promise<Entry | null>>()
  /** Raised by clear(): a page rendered before it is not kept, nor given to anyone waiting. */
  let generation = 0

  const keyOf = (url: string, req: Request, names: readonly string[]) =>
    [url, ...names.map((name) => String(req.headers[name] ?? ''))].join('\n')

  const handler: RequestHandler = (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next()
    const url = normalisedUrl(req)
    const names = varyOf.get(url) ?? []
    const key = keyOf(url, req, names)
    const request = requestOf(req, url)

    const kept = entries.get(key)
    const evaluated = kept?.policy.evaluateRequest(request)
    const underway = rendering.get(key)
    // Fresh, or stale within `stale-while-revalidate` while another request renders it again.
    if (kept && evaluated?.response && (!evaluated.revalidation || underway)) {
      return serve(req, res, kept, evaluated.response.headers)
    }
    // A HEAD request is answered from a kept page, or by the app; its empty answer is not kept.
    if (req.method === 'HEAD') return next()
    if (underway) {
      underway.then(
        (entry) => {
          const now = entry?.policy.evaluateRequest(request)
          if (entry && now?.response) serve(req, res, entry, now.response.headers)
          else next()
        },
        () => next(),
      )
      return
    }
    let settle: (entry: Entry | null) => void = () => {}
    const mine = new Promise<Entry | null>((resolve) => (settle = resolve))
    const started = generation
    rendering.set(key, mine)
    keepWhenDone(res, (answer) => {
      if (rendering.get(key) === mine) rendering.delete(key)
      const entry =
        started === generation &&
        answer &&
        keepable(request, answer, String(res.locals.cspNonce ?? ''))
      if (!entry) return settle(null)
      const vary = varyNames(String(answer.headers.vary ?? ''))
      varyOf.set(url, vary)
      entries.set(keyOf(url, req, vary), entry)
      settle(entry)
    })
    next()
  }
  return Object.assign(handler, {
    clear() {
      generation += 1
      entries.clear()
      rendering.clear()
    },
  })
}

/** Sends a kept page: its headers, 304 when the visitor has it, else its bytes compressed. */
function serve(req: Request, res: Response, entry: Entry, headers: CachePolicy.Headers) {
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) res.setHeader(name, value)
  }
  // Kept before compression, it is sent compressed as each visitor accepts.
  res.setHeader('Vary', [headers.vary, 'Accept-Encoding'].filter(Boolean).join(', '))
  res.setHeader('X-Page-Cache', 'hit')
  if (req.fresh) return void res.status(304).end()
  const encoding: Encoding = req.acceptsEncodings('br')
    ? 'br'
    : req.acceptsEncodings('gzip')
      ? 'gzip'
      : 'identity'
  const body = (entry.bodies[encoding] ??= compress(entry.bodies.identity, encoding))
  if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding)
  res.setHeader('Content-Length', body.length)
  res.status(200).end(req.method === 'HEAD' ? undefined : body)
}

type Answer = {
  status: number
  headers: Record<string, string | string[] | number | undefined>
  body: Buffer
}

/** Headers of an answer that belong to its one request or to how it was sent. */
const OWN_HEADERS = new Set([
  'x-request-id',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'etag',
  'connection',
  'keep-alive',
])

/**
 * The answer as the cache keeps it, when HTTP lets a shared cache keep it. An HTML page's inline
 * scripts are allowed by their hashes rather than by the first visitor's nonce, which is taken
 * out of the page, so that every later visitor gets the same bytes (compressed once); a page with
 * a script loaded by address is not kept (its nonce would be needed).
 */
function keepable(request: CachePolicy.Request, answer: Answer, nonce: string): Entry | null {
  if (answer.status !== 200 || answer.headers['set-cookie'] !== undefined) return null
  const headers: Record<string, string | string[]> = {}
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value === undefined || OWN_HEADERS.has(name)) continue
    headers[name] = typeof value === 'number' ? String(value) : value
  }
  const policy = new CachePolicy(request, { status: answer.status, headers }, { shared: true })
  if (!policy.storable() || policy.timeToLive() <= 0) return null
  let body = answer.body
  const policyHeader = headers['content-security-policy']
  if (String(headers['content-type'] ?? '').startsWith('text/html') && nonce) {
    const html = body.toString('utf8')
    const hashes = new Set<string>()
    for (const [, attributes, code] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
      if (/\ssrc\s*=/i.test(attributes!)) return null
      hashes.add(`'sha256-${createHash('sha256').update(code!).digest('base64')}'`)
    }
    if (typeof policyHeader === 'string') {
      const hashed = policyHeader.replace(`'nonce-${nonce}'`, [...hashes].join(' '))
      if (hashed === policyHeader && hashes.size > 0) return null
      headers['content-security-policy'] = hashed
    }
    body = Buffer.from(html.replaceAll(` nonce="${nonce}"`, ''), 'utf8')
  }
  headers.vary = varyNames(String(headers.vary ?? '')).join(', ')
  const etag = `W/"${createHash('sha1').update(body).digest('base64url')}"`
  headers.etag = etag
  return {
    policy: new CachePolicy(request, { status: answer.status, headers }, { shared: true }),
    headers,
    bodies: { identity: body },
  }
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

/**
 * Collects what the app writes; once the answer is sent whole, hands it over, or null when it
 * was cut short or too large to keep.
 */
function keepWhenDone(res: Response, done: (answer: Answer | null) => void) {
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
    if (size <= MAX_ENTRY_BYTES) chunks.push(buffer)
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
    if (size > MAX_ENTRY_BYTES) return done(null)
    done({ status: res.statusCode, headers: res.getHeaders(), body: Buffer.concat(chunks) })
  })
}
