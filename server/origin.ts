import type { RequestHandler } from 'express'
import { refuse } from './messages.ts'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])
// Payment providers call their webhooks from their own servers; those are signed instead.
const EXEMPT_PREFIXES = ['/api/payments/webhook/']

/**
 * Every mutation from a browser must come from our own origin (CSRF defence next to
 * SameSite=Lax cookies). A request without an Origin header is not from a modern browser's
 * cross-site form or fetch, so it is let through.
 */
export function sameOriginMutations(publicOrigin: string | undefined): RequestHandler {
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next()
    if (EXEMPT_PREFIXES.some((prefix) => req.path.startsWith(prefix))) return next()
    const origin = req.get('origin')
    if (!origin) return next()
    const expected = publicOrigin ?? `${req.protocol}://${req.get('host') ?? ''}`
    if (origin === expected) return next()
    refuse(req, res, 403, 'crossSite').catch(next)
  }
}
