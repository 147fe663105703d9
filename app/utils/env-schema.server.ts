import { z } from 'zod'
import { boolish, imageSettings, parseHostPort, trustProxy } from './env-fields.server.ts'
import { pushSettings } from './env-push.server.ts'
import { telegramSettings } from './env-telegram.server.ts'

// The environment's variables and their formats (read and checked in app/utils/env.server.ts).

/** REDIS_PREFIX when it is not set (also for the scripts that read it themselves). */
export const DEFAULT_REDIS_PREFIX = 'pa'

export const envSchema = z.object({
  ...imageSettings,
  ...pushSettings,
  ...telegramSettings,
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
  /**
   * Registrations from one address (an IPv6 /64) a day that get their free bids at once; the
   * next ones wait for a verified phone (docs/rules.md#registration). Times RATE_LIMIT_SCALE.
   */
  FREE_BIDS_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(20),
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

/** The schema's output, before the checks beyond it and the derived sandbox secret. */
export type ParsedEnv = z.infer<typeof envSchema>
