import { isIP } from 'node:net'
import { z } from 'zod'

// Value types shared by app/utils/env.server.ts's schema and the image settings the seed reads.

/** DATA_DIR when it is not set. */
export const DEFAULT_DATA_DIR = '.data'

export const boolish = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', ''])
  .transform((v) => v === '1' || v === 'true' || v === 'yes')

/** Names Express accepts in a "trust proxy" list for whole ranges of addresses. */
const PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal']

/** An address, a subnet in CIDR notation or one of PROXY_RANGES. */
function isProxyEntry(entry: string) {
  if (PROXY_RANGES.includes(entry)) return true
  const [address = '', bits, ...rest] = entry.split('/')
  const version = isIP(address)
  if (!version || rest.length > 0) return false
  return (
    bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128))
  )
}

/**
 * Express "trust proxy": the client's address is read from X-Forwarded-For only as far as the
 * peers it passed through are trusted. A hop count (0 = none, the header is ignored), or the
 * proxies' addresses and subnets, comma-separated. `true` (trust anyone) is refused: every client
 * could then name its own address.
 */
export const trustProxy = z
  .string()
  .default('0')
  .transform((value, ctx): number | string[] => {
    const text = value.trim()
    if (/^\d+$/.test(text) && Number(text) <= 10) return Number(text)
    const entries = text.split(',').map((entry) => entry.trim())
    if (entries.every((entry) => entry && isProxyEntry(entry))) return entries
    ctx.addIssue({
      code: 'custom',
      message: `must be a hop count from 0 to 10, or addresses and subnets (CIDR) of the proxies, comma-separated (${PROXY_RANGES.join(', ')} allowed)`,
    })
    return z.NEVER
  })

/**
 * Where product images are kept (app/services/images/store.server.ts): files under
 * DATA_DIR/images, or an S3-compatible bucket for instances that share no folder. Read apart
 * too, by the seed, which runs without the rest of the environment.
 */
export const imageSettings = {
  /** Where the app keeps files of its own: product images under `images/` (a volume in the image). */
  DATA_DIR: z.string().min(1).default(DEFAULT_DATA_DIR),
  IMAGE_STORE: z.enum(['local', 's3']).default('local'),
  /** An S3-compatible service's address; AWS's own when unset. */
  S3_ENDPOINT: z
    .string()
    .url('must be a URL')
    .regex(/^https?:\/\//, 'must be an http(s) URL')
    .optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name (3-63 a-z, 0-9, . and -)')
    .optional(),
  /** Credentials; without them the AWS SDK's own chain (its environment, an instance role). */
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** 1: bucket in the path (`endpoint/bucket/key`), as most S3-compatible services want. */
  S3_FORCE_PATH_STYLE: boolish.default('1'),
}

export type ImageSettings = z.infer<z.ZodObject<typeof imageSettings>>

/** `host:port` (a name, IPv4 or [IPv6]) and a port from 1 to 65535, or null. */
export function parseHostPort(entry: string): { host: string; port: number } | null {
  const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(entry)
  const port = Number(match?.[2])
  if (!match || port < 1 || port > 65535) return null
  return { host: match[1]!.replace(/^\[|\]$/g, ''), port }
}
