import { createHmac } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { sign, verifySignature } from './signature.server.ts'

const secret = 'sandbox-secret-for-tests'
const body = '{"payment_id":"p1","status":"paid","amount":"750.00"}'

describe('webhook signatures', () => {
  test('HMAC-SHA256 of the raw body, hex', () => {
    expect(sign(secret, body)).toBe(createHmac('sha256', secret).update(body).digest('hex'))
  })

  test('the right signature passes, with or without the sha256= prefix, any case', () => {
    const signature = sign(secret, body)
    expect(verifySignature(secret, body, signature)).toBe(true)
    expect(verifySignature(secret, body, `sha256=${signature.toUpperCase()}`)).toBe(true)
  })

  test('a changed body, another secret, a missing or garbled signature all fail', () => {
    const signature = sign(secret, body)
    expect(verifySignature(secret, body.replace('750', '1'), signature)).toBe(false)
    expect(verifySignature('another-secret', body, signature)).toBe(false)
    expect(verifySignature(secret, body, null)).toBe(false)
    expect(verifySignature(secret, body, '')).toBe(false)
    expect(verifySignature(secret, body, signature.slice(0, 63))).toBe(false)
    expect(verifySignature(secret, body, `${signature.slice(0, 63)}z`)).toBe(false)
  })
})
