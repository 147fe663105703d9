import { createHash } from 'node:crypto'
import { isIP } from 'node:net'
import { z } from 'zod'

// The one place the environment is read and validated.
// A bad value stops the start with a message naming the variable.

/** DATA_DIR when it is not set. */
const DEFAULT_DATA_DIR = '.data'

/** REDIS_PREFIX when it is not set (also for the scripts that read it themselves). */
export const DEFAULT_REDIS_PREFIX = 'pa'

const boolish = z
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
const trustProxy = z
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
const imageSettings = {
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

const schema = z.object({
  ...imageSettings,
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .url()
    .refine((v) => /^postgres(ql)?:\/\//.test(v), 'must be a postgresql:// URL'),
  /** Required unless REDIS_SENTINELS is set; then only its user, password and database count. */
  REDIS_URL: z
    .string()
    .url()
    .refine((v) => /^rediss?:\/\//.test(v), 'must be a redis:// or rediss:// URL')
    .optional(),
  /** Sentinels to ask for REDIS_MASTER_NAME's primary (docs/operations.md#redis-sentinel). */
  REDIS_SENTINELS: z
    .string()
    .transform((value, ctx) => {
      const sentinels = value.split(',').map((entry) => parseHostPort(entry.trim()))
      if (sentinels.every((s) => s !== null)) return sentinels
      ctx.addIssue({ code: 'custom', message: 'must be host:port entries, comma-separated' })
      return z.NEVER
    })
    .optional(),
  REDIS_MASTER_NAME: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}$/, 'letters, digits, ., _ and - only, at most 64')
    .optional(),
  /**
   * Replicas that must hold a bid, prebid, credit or payment before it is acknowledged (Redis
   * WAIT, docs/decisions/037-acknowledged-after-a-replica.md); 0 = acknowledged at once.
   */
  REDIS_WAIT_REPLICAS: z.coerce.number().int().min(0).max(10).default(0),
  /** How long a write waits for those replicas before its answer is a 503. */
  REDIS_WAIT_TIMEOUT_MS: z.coerce.number().int().min(1).max(60_000).default(1_000),
  /** Prefix of every Redis key, so several installs or test runs can share one Redis. */
  REDIS_PREFIX: z
    .string()
    .regex(/^[a-z0-9_-]{1,32}$/i, 'letters, digits, _ and - only, at most 32')
    .default(DEFAULT_REDIS_PREFIX),
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters'),
  /**
   * Secrets replaced by SESSION_SECRET, comma-separated: cookies they signed are still accepted
   * (a session cookie is set again, signed with the new one: server/app.ts), so rotating the
   * secret logs nobody out.
   */
  SESSION_SECRET_PREVIOUS: z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((secret) => secret.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().min(32, 'each secret must be at least 32 characters')).max(5))
    .default(''),
  /**
   * The site's public origin (scheme://host[:port]); mutations from other origins are refused,
   * and payment callback and return URLs are built from it. Required in production.
   */
  PUBLIC_ORIGIN: z
    .string()
    .url()
    .transform((v) => new URL(v).origin)
    .optional(),
  TRUST_PROXY: trustProxy,
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /**
   * Multiplies every rate limit's count (login, registration, checks; the waits after failed
   * logins keep their length); raise it for load tests.
   */
  RATE_LIMIT_SCALE: z.coerce.number().min(0.01).max(100_000).default(1),
  /** Google Tag Manager container for the analytics events; loaded only with analytics consent. */
  GTM_ID: z
    .string()
    .regex(/^GTM-[A-Z0-9]{4,12}$/, 'must look like GTM-XXXXXXX')
    .optional(),
  /**
   * Socket.IO connections one client address (an IPv6 /64 counts as one) may hold on an
   * instance; more are refused (server/socket-guard.ts).
   */
  SOCKETS_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(100),
  /** Bearer token Prometheus sends for /metrics; without it only this host may read them. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Run the engine's workers (sweepers, bots, timer broadcast) in this process. */
  ENGINE_WORKERS: boolish.default('1'),
  /** Who takes the money for bid packages and orders (app/services/payments, docs/payments.md). */
  PAYMENT_PROVIDER: z.enum(['sandbox', 'freedompay']).default('sandbox'),
  /** Signs the sandbox's webhooks; derived from SESSION_SECRET outside production. */
  PAYMENT_SANDBOX_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  /** The sandbox in production is for demos only: this switch says so on purpose. */
  PAYMENT_SANDBOX_DEMO: boolish.default('0'),
  /**
   * A demo site that stays alive: the demo keeper moves and lists auctions again and puts house
   * bots on them (app/services/demo/keeper.server.ts). Never on a real site: production accepts
   * it only as a declared demo (the sandbox provider with PAYMENT_SANDBOX_DEMO=1).
   */
  DEMO_MODE: boolish.default('0'),
  /** Freedom Pay (app/services/payments/freedompay.server.ts): required when it is the provider. */
  FREEDOMPAY_MERCHANT_ID: z
    .string()
    .regex(/^\d{1,12}$/, 'must be the numeric merchant id')
    .optional(),
  FREEDOMPAY_SECRET_KEY: z.string().min(8, 'must be at least 8 characters').optional(),
  FREEDOMPAY_API_URL: z
    .string()
    .url('must be a URL')
    .regex(/^https?:\/\//, 'must be an http(s) URL')
    .default('https://api.freedompay.kg'),
  /** 1: Freedom Pay's testing mode (no money moves); 0: real payments. */
  FREEDOMPAY_TEST_MODE: z.enum(['0', '1'], { message: 'must be 0 or 1' }).default('0'),
})

export type Env = z.infer<typeof schema> & { PAYMENT_SANDBOX_SECRET: string }

/** `host:port` (a name, IPv4 or [IPv6]) and a port from 1 to 65535, or null. */
function parseHostPort(entry: string): { host: string; port: number } | null {
  const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(entry)
  const port = Number(match?.[2])
  if (!match || port < 1 || port > 65535) return null
  return { host: match[1]!.replace(/^\[|\]$/g, ''), port }
}

/** Secrets for signed cookies: the first signs, every one verifies. */
export function cookieSecrets(env: Env): string[] {
  return [env.SESSION_SECRET, ...env.SESSION_SECRET_PREVIOUS]
}

export class EnvError extends Error {
  constructor(public readonly issues: string[]) {
    super(`Invalid environment:\n${issues.map((i) => `  - ${i}`).join('\n')}`)
    this.name = 'EnvError'
  }
}

const DEV_SESSION_SECRET = 'development-only-secret-never-use-in-production'

/** The environment without its empty values: `PORT= npm start` behaves like no PORT at all. */
function withoutEmpty(source: Record<string, string | undefined>) {
  const input: Record<string, string | undefined> = { ...source }
  for (const key of Object.keys(input)) if (input[key] === '') delete input[key]
  return input
}

/** A schema's problems, each naming its variable. */
function issuesOf(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const name = issue.path.join('.') || '(environment)'
    const message =
      issue.code === 'invalid_type' && issue.received === 'undefined'
        ? 'is required'
        : issue.message
    return `${name}: ${message}`
  })
}

export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const input = withoutEmpty(source)
  if (!input.SESSION_SECRET && input.NODE_ENV !== 'production') {
    input.SESSION_SECRET = DEV_SESSION_SECRET
  }
  const result = schema.safeParse(input)
  const redis = redisProblems(input)
  if (!result.success) throw new EnvError([...issuesOf(result.error), ...redis])
  const problems = [
    ...redis,
    ...imageStoreProblems(result.data),
    ...providerProblems(result.data),
    ...originProblems(result.data),
    ...demoProblems(result.data),
  ]
  if (problems.length > 0) throw new EnvError(problems)
  return {
    ...result.data,
    PAYMENT_SANDBOX_SECRET:
      result.data.PAYMENT_SANDBOX_SECRET ??
      createHash('sha256').update(`payment-sandbox:${result.data.SESSION_SECRET}`).digest('hex'),
  }
}

/** Only the image store's settings (the seed's), validated as parseEnv does. */
export function parseImageSettings(
  source: Record<string, string | undefined> = process.env,
): ImageSettings {
  const result = z.object(imageSettings).safeParse(withoutEmpty(source))
  if (!result.success) throw new EnvError(issuesOf(result.error))
  const problems = imageStoreProblems(result.data)
  if (problems.length > 0) throw new EnvError(problems)
  return result.data
}

/** What the image store needs beyond the schema: a bucket, and both credentials or none. */
function imageStoreProblems(env: ImageSettings): string[] {
  if (env.IMAGE_STORE !== 's3') return []
  const problems: string[] = []
  if (!env.S3_BUCKET) problems.push('S3_BUCKET: is required while IMAGE_STORE is s3')
  if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
    problems.push('S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: give both or neither')
  }
  return problems
}

/**
 * Production builds the provider's callback and return URLs from PUBLIC_ORIGIN alone, never from
 * a request's Host header (whatever its sender wrote), so it must be given.
 */
function originProblems(env: z.infer<typeof schema>): string[] {
  if (env.NODE_ENV !== 'production' || env.PUBLIC_ORIGIN) return []
  return [
    'PUBLIC_ORIGIN: is required in production: the public https:// address of the site ' +
      '(payment callbacks and return URLs are built from it)',
  ]
}

/**
 * The demo keeper moves auctions' start times and lists lots again: on a site that takes real
 * money that would be a fraud on its bidders, so production runs it only where the payments are
 * the declared sandbox demo too (docs/decisions/048-demo-keeper.md).
 */
function demoProblems(env: z.infer<typeof schema>): string[] {
  if (!env.DEMO_MODE || env.NODE_ENV !== 'production') return []
  if (env.PAYMENT_PROVIDER === 'sandbox' && env.PAYMENT_SANDBOX_DEMO) return []
  return [
    'DEMO_MODE: the demo keeper moves and relists auctions and is for demos only; in production ' +
      'it runs only in a declared demo (PAYMENT_PROVIDER=sandbox with PAYMENT_SANDBOX_DEMO=1), ' +
      'never with real payments: unset DEMO_MODE for a real site',
  ]
}

/** Loopback hosts: a request to them never leaves the machine. */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]'])

/** What the chosen payment provider needs beyond the schema (docs/payments.md). */
function providerProblems(env: z.infer<typeof schema>): string[] {
  const problems: string[] = []
  if (env.PAYMENT_PROVIDER === 'sandbox' && env.NODE_ENV === 'production') {
    // The sandbox credits bids for a button press: in production it runs only as a declared
    // demo, and with a secret of its own.
    if (!env.PAYMENT_SANDBOX_DEMO) {
      problems.push(
        'PAYMENT_SANDBOX_DEMO: the sandbox payment provider is for demos only and moves no money; ' +
          'set PAYMENT_PROVIDER=freedompay for real payments, or PAYMENT_SANDBOX_DEMO=1 for a demo',
      )
    }
    if (!env.PAYMENT_SANDBOX_SECRET) {
      problems.push(
        'PAYMENT_SANDBOX_SECRET: is required in production while PAYMENT_PROVIDER is sandbox',
      )
    }
  }
  if (env.PAYMENT_PROVIDER === 'freedompay') {
    if (!env.FREEDOMPAY_MERCHANT_ID) {
      problems.push('FREEDOMPAY_MERCHANT_ID: is required while PAYMENT_PROVIDER is freedompay')
    }
    if (!env.FREEDOMPAY_SECRET_KEY) {
      problems.push('FREEDOMPAY_SECRET_KEY: is required while PAYMENT_PROVIDER is freedompay')
    }
  }
  // Its answers settle money: in production they come over TLS (a loopback address, which no
  // network sees, excepted: a local proxy or a test double).
  const api = new URL(env.FREEDOMPAY_API_URL)
  if (env.NODE_ENV === 'production' && api.protocol !== 'https:' && !LOOPBACK.has(api.hostname)) {
    problems.push('FREEDOMPAY_API_URL: must be an https:// URL in production')
  }
  return problems
}

/** Redis is reached either at REDIS_URL or through Sentinels that name its primary. */
function redisProblems(env: Record<string, string | undefined>): string[] {
  if (env.REDIS_SENTINELS && !env.REDIS_MASTER_NAME)
    return ['REDIS_MASTER_NAME: is required with REDIS_SENTINELS']
  if (env.REDIS_MASTER_NAME && !env.REDIS_SENTINELS)
    return ['REDIS_SENTINELS: is required with REDIS_MASTER_NAME']
  if (!env.REDIS_URL && !env.REDIS_SENTINELS) return ['REDIS_URL: is required']
  return []
}

let cached: Env | undefined
export function getEnv(): Env {
  cached ??= parseEnv()
  return cached
}
