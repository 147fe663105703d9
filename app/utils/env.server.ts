import { createHash } from 'node:crypto'
import { z } from 'zod'

// The one place the environment is read and validated.
// A bad value stops the start with a message naming the variable.

/** REDIS_PREFIX when it is not set (also for the scripts that read it themselves). */
export const DEFAULT_REDIS_PREFIX = 'pa'

const boolish = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', ''])
  .transform((v) => v === '1' || v === 'true' || v === 'yes')

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .url()
    .refine((v) => /^postgres(ql)?:\/\//.test(v), 'must be a postgresql:// URL'),
  REDIS_URL: z
    .string()
    .url()
    .refine((v) => /^rediss?:\/\//.test(v), 'must be a redis:// or rediss:// URL'),
  /** Prefix of every Redis key, so several installs or test runs can share one Redis. */
  REDIS_PREFIX: z
    .string()
    .regex(/^[a-z0-9_-]{1,32}$/i, 'letters, digits, _ and - only, at most 32')
    .default(DEFAULT_REDIS_PREFIX),
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters'),
  /**
   * Secrets replaced by SESSION_SECRET, comma-separated: cookies they signed are still accepted
   * (and re-signed with the new one), so rotating the secret logs nobody out.
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
  /** The site's public origin (scheme://host[:port]); mutations from other origins are refused. */
  PUBLIC_ORIGIN: z
    .string()
    .url()
    .transform((v) => new URL(v).origin)
    .optional(),
  /** Express "trust proxy": hops to trust for the client IP (0 = none). */
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** Multiplies every rate limit (login, registration, checks); raise it for load tests. */
  RATE_LIMIT_SCALE: z.coerce.number().min(0.01).max(100_000).default(1),
  /** Google Tag Manager container for the analytics events; loaded only with analytics consent. */
  GTM_ID: z
    .string()
    .regex(/^GTM-[A-Z0-9]{4,12}$/, 'must look like GTM-XXXXXXX')
    .optional(),
  /** Bearer token Prometheus sends for /metrics; without it only this host may read them. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Run the engine's workers (sweepers, bots, timer broadcast) in this process. */
  ENGINE_WORKERS: boolish.default('1'),
  /** Who takes the money for bid packages and orders (app/services/payments, docs/payments.md). */
  PAYMENT_PROVIDER: z.enum(['sandbox']).default('sandbox'),
  /** Signs the sandbox's webhooks; derived from SESSION_SECRET outside production. */
  PAYMENT_SANDBOX_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
})

export type Env = z.infer<typeof schema> & { PAYMENT_SANDBOX_SECRET: string }

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

export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const input: Record<string, string | undefined> = { ...source }
  // Empty strings count as unset, so `PORT= npm start` behaves like no PORT at all.
  for (const key of Object.keys(input)) if (input[key] === '') delete input[key]
  if (!input.SESSION_SECRET && input.NODE_ENV !== 'production') {
    input.SESSION_SECRET = DEV_SESSION_SECRET
  }
  const result = schema.safeParse(input)
  // The sandbox credits bids for a button press: in production it must be switched on on
  // purpose, by giving it a secret of its own.
  if (
    result.success &&
    result.data.NODE_ENV === 'production' &&
    result.data.PAYMENT_PROVIDER === 'sandbox' &&
    !result.data.PAYMENT_SANDBOX_SECRET
  ) {
    throw new EnvError([
      'PAYMENT_SANDBOX_SECRET: is required in production while PAYMENT_PROVIDER is sandbox',
    ])
  }
  if (!result.success) {
    throw new EnvError(
      result.error.issues.map((issue) => {
        const name = issue.path.join('.') || '(environment)'
        const message =
          issue.code === 'invalid_type' && issue.received === 'undefined'
            ? 'is required'
            : issue.message
        return `${name}: ${message}`
      }),
    )
  }
  return {
    ...result.data,
    PAYMENT_SANDBOX_SECRET:
      result.data.PAYMENT_SANDBOX_SECRET ??
      createHash('sha256').update(`payment-sandbox:${result.data.SESSION_SECRET}`).digest('hex'),
  }
}

let cached: Env | undefined
export function getEnv(): Env {
  cached ??= parseEnv()
  return cached
}
