import type { RequestHandler } from 'express'
import { bodyLimitOf } from '../app/utils/request-body.server.ts'
import { refuse } from './messages.ts'

/**
 * A URL that cannot be a real address of ours: a NUL byte (Postgres refuses it in text, so it
 * would otherwise surface as a server error deep inside a query) or a malformed %-escape.
 * Answered 400 here, once, for every route, in the visitor's language.
 */
export function rejectHostileUrls(): RequestHandler {
  return (req, res, next) => {
    let decoded: string
    try {
      decoded = decodeURIComponent(req.originalUrl)
    } catch {
      decoded = '\0'
    }
    if (!decoded.includes('\0')) return next()
    refuse(req, res, 400, 'badUrl').catch(next)
  }
}

/** The most of an unread body read and thrown away to keep its connection open for reuse. */
const MAX_DRAIN_BYTES = 16 * 1024 * 1024

/**
 * Request bodies and keep-alive connections.
 *
 * A body declared larger than its address allows (a form post's 1 MiB; an image upload's 9 MiB:
 * `bodyLimitOf`) is refused with 413 before anything reads it (except a script's post to a
 * route's `.data` address: below); one sent without a declared length, like any that gets
 * through, is counted as it is read, against the route's own limit
 * (app/utils/request-body.server.ts).
 *
 * An answer may go out before its request's body was read: a redirect to the login page, a
 * refusal, a 413. The rest of the body then still sits on the connection, and the next request
 * a client sends on it would wait behind it until the idle timeout ends the connection with a
 * reset. So once the answer is sent, what is left is read and thrown away (up to
 * MAX_DRAIN_BYTES; a larger remainder closes the connection instead, said in the answer).
 */
export function limitRequestBodies(): RequestHandler {
  return (req, res, next) => {
    const declared = Number(req.get('content-length') ?? 0)
    if (declared > MAX_DRAIN_BYTES) res.setHeader('Connection', 'close')
    res.on('finish', () => {
      if (req.complete || req.destroyed) return
      let left = MAX_DRAIN_BYTES
      req.removeAllListeners('data')
      req.on('data', (chunk: Buffer) => {
        left -= chunk.length
        if (left < 0) req.socket.destroy()
      })
      req.resume()
    })
    // A page's script posts to the route's `.data` address and can read only Remix's own
    // answers: there the route's reader refuses the body (413, app/utils/form.server.ts), so
    // that Remix encodes the refusal and the page shows it, rather than an error it cannot read.
    if (declared > bodyLimitOf(req.path) && !req.path.endsWith('.data')) {
      refuse(req, res, 413, 'tooLarge').catch(next)
      return
    }
    next()
  }
}
