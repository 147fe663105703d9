import { createHmac, timingSafeEqual } from 'node:crypto'

// HMAC-SHA256 over the exact bytes received, hex-encoded, the way most hosted checkouts sign
// their webhooks. Compared in constant time, so a forger learns nothing from response times.

export function sign(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('hex')
}

export function verifySignature(secret: string, body: string, signature: string | null): boolean {
  if (!signature) return false
  const given = signature
    .trim()
    .toLowerCase()
    .replace(/^sha256=/, '')
  if (!/^[0-9a-f]{64}$/.test(given)) return false
  return timingSafeEqual(Buffer.from(given, 'hex'), Buffer.from(sign(secret, body), 'hex'))
}
