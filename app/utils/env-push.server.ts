import { createECDH } from 'node:crypto'
import { z } from 'zod'

// Web Push's settings (docs/push.md): the site's VAPID key pair (RFC 8292) and the contact the
// push services may write to. All three or none: without them the push channel is hidden.

/** An uncompressed P-256 public key, base64url without padding: 65 bytes, 87 characters. */
const PUBLIC_KEY = /^[A-Za-z0-9_-]{87}$/
/** A P-256 private key, base64url without padding: 32 bytes, 43 characters. */
const PRIVATE_KEY = /^[A-Za-z0-9_-]{43}$/
/** A host name or address as a URL writes it (IPv6 in brackets), with an optional port. */
const INTERNAL_HOST = /^([a-z0-9.-]+|\[[0-9a-f:.]+\])(:\d{1,5})?$/

export const pushSettings = {
  VAPID_PUBLIC_KEY: z
    .string()
    .regex(PUBLIC_KEY, 'must be the base64url public key `npm run vapid:keys` prints')
    .refine((v) => Buffer.from(v, 'base64url')[0] === 4, 'must be an uncompressed P-256 key')
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .regex(PRIVATE_KEY, 'must be the base64url private key `npm run vapid:keys` prints')
    .optional(),
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:\S+@\S+|https:\/\/\S+)$/, 'must be a mailto: or https:// address')
    .optional(),
  /**
   * Push services on a private network that endpoints may name although their address is not
   * public (app/services/push/endpoint.server.ts): `host` or `host:port`, comma-separated.
   * Unset, only public addresses are sent to.
   */
  PUSH_INTERNAL_HOSTS: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((entry) => entry.trim().toLowerCase())
        .filter(Boolean),
    )
    .refine(
      (hosts) => hosts.every((host) => INTERNAL_HOST.test(host)),
      'must be host or host:port entries (an IPv6 address in brackets), comma-separated',
    )
    .optional(),
}

type PushSettings = {
  VAPID_PUBLIC_KEY?: string
  VAPID_PRIVATE_KEY?: string
  VAPID_SUBJECT?: string
}

export type Vapid = { publicKey: string; privateKey: string; subject: string }

/** Some of the three set but not all: a mistake worth stopping the start for. */
export function pushProblems(env: PushSettings): string[] {
  const names = ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY', 'VAPID_SUBJECT'] as const
  const missing = names.filter((name) => !env[name])
  if (missing.length === names.length) return []
  if (missing.length > 0) {
    return missing.map((name) => `${name}: is required when any VAPID_ setting is set`)
  }
  return publicKeyOf(env.VAPID_PRIVATE_KEY!) === env.VAPID_PUBLIC_KEY
    ? []
    : ['VAPID_PUBLIC_KEY: is not the public key of VAPID_PRIVATE_KEY']
}

/** The P-256 public key (uncompressed, base64url) that belongs to a private key. */
function publicKeyOf(privateKey: string): string | null {
  try {
    const ecdh = createECDH('prime256v1')
    ecdh.setPrivateKey(Buffer.from(privateKey, 'base64url'))
    return ecdh.getPublicKey().toString('base64url')
  } catch {
    return null
  }
}

/** The site's VAPID details, or null when Web Push is not configured. */
export function vapidOf(env: PushSettings): Vapid | null {
  if (!env.VAPID_PUBLIC_KEY || !env.VAPID_PRIVATE_KEY || !env.VAPID_SUBJECT) return null
  return {
    publicKey: env.VAPID_PUBLIC_KEY,
    privateKey: env.VAPID_PRIVATE_KEY,
    subject: env.VAPID_SUBJECT,
  }
}
