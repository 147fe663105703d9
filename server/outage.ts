import type { Request, Response } from 'express'
import type { RequestContext } from '../app/utils/logger.server.ts'

/**
 * When a request failed because Postgres or Redis was out of reach (the app marks its context,
 * see app/entry.server.tsx), its 500 becomes a 503 with Retry-After; a JSON or text answer (an
 * API call) is replaced by `{"error": message}` in the visitor's language. Pages keep their
 * body: the error view already says the service is unavailable.
 */
export function answerOutagesWith503(context: RequestContext, req: Request, res: Response) {
  const api = req.path.startsWith('/api/')
  let decided: 'pass' | 'page' | 'api' | undefined
  const decide = () => {
    if (decided) return decided
    if (!context.unavailable || res.statusCode < 500 || res.headersSent) return (decided = 'pass')
    res.statusCode = 503
    res.setHeader('Retry-After', '5')
    if (!api) return (decided = 'page')
    res.removeHeader('Content-Length')
    res.removeHeader('Content-Encoding')
    res.setHeader('Content-Type', 'application/json; charset=utf-8')
    return (decided = 'api')
  }
  const { write, end } = res
  res.write = function (this: Response, ...args: Parameters<Response['write']>) {
    if (decide() === 'api') return true
    return write.apply(this, args)
  } as Response['write']
  res.end = function (this: Response, ...args: unknown[]) {
    if (decide() === 'api') {
      void context.unavailable!.then((message) =>
        end.call(this, JSON.stringify({ error: message }), 'utf8'),
      )
      return this
    }
    return (end as (...a: unknown[]) => Response).apply(this, args)
  } as Response['end']
}
