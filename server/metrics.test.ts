import type { Request, Response } from 'express'
import { describe, expect, test } from 'vitest'
import { metricsHandler } from './metrics.ts'

type Answer = { status: number; body: unknown }

async function scrape(
  token: string | undefined,
  headers: Record<string, string>,
  address: string,
  production = false,
) {
  const answer: Answer = { status: 200, body: undefined }
  const res = {
    setHeader: () => res,
    status(code: number) {
      answer.status = code
      return res
    },
    json(body: unknown) {
      answer.body = body
    },
    send(body: unknown) {
      answer.body = body
    },
  } as unknown as Response
  const req = { headers, socket: { remoteAddress: address } } as unknown as Request
  await metricsHandler(token, { production })(req, res, () => {})
  return answer
}

describe('/metrics access', () => {
  const token = 'scrape-token-0123456789'

  test('with a token: only the right bearer token, from anywhere', async () => {
    expect((await scrape(token, { authorization: `Bearer ${token}` }, '203.0.113.9')).status).toBe(
      200,
    )
    for (const authorization of [`Bearer ${token}x`, 'Bearer ', token, '']) {
      expect(await scrape(token, { authorization }, '127.0.0.1')).toEqual({
        status: 401,
        body: { error: 'Metrics are not public' },
      })
    }
  })

  test('in production: the token or nothing, even from this host', async () => {
    expect(
      (await scrape(token, { authorization: `Bearer ${token}` }, '127.0.0.1', true)).status,
    ).toBe(200)
    expect((await scrape(token, {}, '127.0.0.1', true)).status).toBe(401)
    for (const address of ['127.0.0.1', '::1']) {
      expect(await scrape(undefined, {}, address, true)).toEqual({
        status: 403,
        body: { error: 'Metrics are off: set METRICS_TOKEN' },
      })
    }
  })

  test('elsewhere, without a token: a direct connection from this host only', async () => {
    expect((await scrape(undefined, {}, '127.0.0.1')).status).toBe(200)
    expect((await scrape(undefined, {}, '::1')).status).toBe(200)
    expect((await scrape(undefined, {}, '203.0.113.9')).status).toBe(403)
    expect((await scrape(undefined, { 'x-forwarded-for': '1.2.3.4' }, '127.0.0.1')).status).toBe(
      403,
    )
  })
})
