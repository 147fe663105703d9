import type { RequestHandler } from 'express'
import type { ownPages as OwnPages } from '../app/services/own-page.server.ts'
import {
  CHOICE_COOKIES,
  ONE_VIEW_COOKIES,
  SESSION_COOKIES,
  compressForOne,
  cookiesOf,
  encodingFor,
  sharedPageKey,
  varyByEncoding,
} from './page-cache.ts'

// Pages that signed-in people share (decision 022, app/services/own-page.server.ts): the home
// page, /auctions and auction pages, for a request with a session and nothing else of its own.

const SHARED_PATHS = /^\/(?:auctions|auction\/[^/.]+)?$/
/** The language cookie: it goes with the shared render, as the cookie choices do. */
const LANGUAGE_COOKIE = 'lng'

export function ownPageFill({
  ownPage,
}: {
  ownPage: ReturnType<typeof OwnPages> | undefined
}): RequestHandler {
  return (req, res, next) => {
    if (!ownPage || req.method !== 'GET' || !SHARED_PATHS.test(req.path)) return next()
    const cookies = cookiesOf(req.headers.cookie)
    if (
      !SESSION_COOKIES.some((name) => cookies.has(name)) ||
      ONE_VIEW_COOKIES.some((name) => cookies.has(name))
    )
      return next()
    const sharedCookies = [LANGUAGE_COOKIE, ...CHOICE_COOKIES]
      .filter((name) => cookies.has(name))
      .map((name) => `${name}=${cookies.get(name)}`)
      .join('; ')
    const sharedHeaders: Record<string, string> = {}
    if (sharedCookies) sharedHeaders.cookie = sharedCookies
    const acceptLanguage = req.headers['accept-language']
    if (acceptLanguage) sharedHeaders['accept-language'] = acceptLanguage
    ownPage({
      url: `${req.protocol}://${req.get('host') ?? 'localhost'}${req.originalUrl}`,
      key: sharedPageKey(req, cookies),
      sharedHeaders,
      cookie: req.headers.cookie ?? '',
      nonce: String(res.locals.cspNonce),
    })
      .then(async (answer) => {
        if (!answer) return next()
        const encoding = encodingFor(req)
        const body = await compressForOne(Buffer.from(answer.body), encoding)
        for (const [name, value] of varyByEncoding(answer.headers)) res.setHeader(name, value)
        res.setHeader('X-Page-Cache', 'shared')
        if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding)
        res.setHeader('Content-Length', body.length)
        res.status(answer.status).end(body)
      })
      // Redis or Postgres out of reach, say: the page's own render says so in the visitor's
      // language (a 503 page), as it would without sharing.
      .catch((error: unknown) => (res.headersSent ? next(error) : next()))
  }
}
