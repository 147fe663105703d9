import type { Request, Response } from 'express'
import { expect, test } from 'vitest'
import { securityHeaders, withoutDocumentHeaders } from './security.ts'

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

test("the build's scripts and style sheets drop the headers only a document reads; other files keep them", () => {
  const sent = (file: string) => {
    const headers = new Map<string, string>()
    const res = {
      locals: {} as Record<string, unknown>,
      setHeader: (name: string, value: string) => headers.set(name, value),
      removeHeader: (name: string) => headers.delete(name),
    }
    securityHeaders({ production: true })(
      { path: '/assets/x' } as Request,
      res as unknown as Response,
      () => {},
    )
    withoutDocumentHeaders(res, file)
    return [...headers.keys()].sort()
  }
  for (const file of ['/b/assets/root-1.js', '/b/assets/root-1.js.br', '/b/assets/tw-2.css.gz'])
    expect(sent(file)).toEqual(['Strict-Transport-Security', 'X-Content-Type-Options'])
  expect(sent('/b/assets/logo-3.svg')).toContain('Content-Security-Policy')
  expect(sent('/b/assets/logo-3.svg')).toContain('X-Frame-Options')
})
