import { z } from 'zod'

// A browser's PushSubscription as its toJSON() gives it (W3C Push API; RFC 8291 for the keys),
// checked before it is kept (docs/push.md). Messages are i18n keys of the "push" namespace.

/** An endpoint longer than this is no push service's. */
export const ENDPOINT_MAX = 2048

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/

/** A base64url text that decodes to exactly `bytes` bytes (and, for a key, starts with `first`). */
function base64urlOf(bytes: number, message: string, first?: number) {
  return z
    .string({ required_error: message, invalid_type_error: message })
    .max(200, message)
    .refine((value) => {
      if (!BASE64URL.test(value)) return false
      const decoded = Buffer.from(value, 'base64url')
      return decoded.length === bytes && (first === undefined || decoded[0] === first)
    }, message)
}

export const endpointSchema = z
  .string({ required_error: 'push:errors.endpoint', invalid_type_error: 'push:errors.endpoint' })
  .max(ENDPOINT_MAX, 'push:errors.endpoint')
  .refine((value) => {
    try {
      const url = new URL(value)
      return url.protocol === 'https:' && !url.username && !url.password && url.hostname !== ''
    } catch {
      return false
    }
  }, 'push:errors.endpoint')

export const subscriptionSchema = z.object(
  {
    endpoint: endpointSchema,
    expirationTime: z.number().nullable().optional(),
    keys: z.object(
      {
        // The device's ECDH public key: an uncompressed P-256 point, 65 bytes starting with 4.
        p256dh: base64urlOf(65, 'push:errors.p256dh', 4),
        // The authentication secret: 16 bytes.
        auth: base64urlOf(16, 'push:errors.auth'),
      },
      { required_error: 'push:errors.keys', invalid_type_error: 'push:errors.keys' },
    ),
  },
  { invalid_type_error: 'push:errors.subscription' },
)

export type SubscriptionInput = z.infer<typeof subscriptionSchema>

export const unsubscribeSchema = z.object({ endpoint: endpointSchema })
