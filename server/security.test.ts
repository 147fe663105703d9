import type { Request, Response } from 'express'
import { expect, test } from 'vitest'
import { securityHeaders } from './security.ts'

test('every page answer gets a nonce of its own, across refills of the random block', () => {
  const middleware = securityHeaders({ production: true })
  const nonces = new Set<string>()
  for (let i = 0; i < 1_000; i++) {
    const headers = new Map<string, string>()
    const res = {
      locals: {} as Record<string, unknown>,
      setHeader: (name: string, value: string) => headers.set(name, value),
      removeHeader: () => {},
    }
    middleware({ path: '/' } as Request, res as unknown as Response, () => {})
    const nonce = String(res.locals.cspNonce)
    expect(Buffer.from(nonce, 'base64')).toHaveLength(16)
    expect(headers.get('Content-Security-Policy')).toContain(`'nonce-${nonce}'`)
    nonces.add(nonce)
  }
  expect(nonces.size).toBe(1_000)
})
