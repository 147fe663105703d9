import type { ImageSettings } from './env-fields.server.ts'
import type { ParsedEnv } from './env-schema.server.ts'

// What the environment needs beyond app/utils/env.server.ts's schema: settings that depend on
// each other, and what production refuses.

/** What the image store needs beyond the schema: a bucket, and both credentials or none. */
export function imageStoreProblems(env: ImageSettings): string[] {
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
 * a request's Host header (whatever its sender wrote), so it must be given. In production it and
 * the Telegram Bot API's address are https:// (a loopback address, which no network sees,
 * excepted): over http the payment URLs, the session cookie and the bot's token, which is part
 * of every Bot API address, would cross the network in the clear.
 */
export function originProblems(env: ParsedEnv): string[] {
  if (env.NODE_ENV !== 'production') return []
  if (!env.PUBLIC_ORIGIN) {
    return [
      'PUBLIC_ORIGIN: is required in production: the public https:// address of the site ' +
        '(payment callbacks and return URLs are built from it)',
    ]
  }
  const problems: string[] = []
  if (inTheClear(env.PUBLIC_ORIGIN)) {
    problems.push(
      'PUBLIC_ORIGIN: must be an https:// address in production (a loopback address excepted): ' +
        'payment URLs and session cookies would travel in the clear',
    )
  }
  if (inTheClear(env.TELEGRAM_API_ROOT)) {
    problems.push(
      'TELEGRAM_API_ROOT: must be an https:// URL in production (a loopback address excepted): ' +
        'the bot token would travel in the clear',
    )
  }
  return problems
}

/**
 * The demo keeper moves auctions' start times and lists lots again: on a site that takes real
 * money that would be a fraud on its bidders, so production runs it only where the payments are
 * the declared sandbox demo too (docs/decisions/048-demo-keeper.md).
 */
export function demoProblems(env: ParsedEnv): string[] {
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

/** An address reached without TLS over a network: not https://, not a loopback host. */
function inTheClear(address: string): boolean {
  const url = new URL(address)
  return url.protocol !== 'https:' && !LOOPBACK.has(url.hostname)
}

/** What the chosen payment provider needs beyond the schema (docs/payments.md). */
export function providerProblems(env: ParsedEnv): string[] {
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
  if (env.NODE_ENV === 'production' && inTheClear(env.FREEDOMPAY_API_URL)) {
    problems.push('FREEDOMPAY_API_URL: must be an https:// URL in production')
  }
  return problems
}

/** Redis is reached either at REDIS_URL or through Sentinels that name its primary. */
export function redisProblems(env: Record<string, string | undefined>): string[] {
  if (env.REDIS_SENTINELS && !env.REDIS_MASTER_NAME)
    return ['REDIS_MASTER_NAME: is required with REDIS_SENTINELS']
  if (env.REDIS_MASTER_NAME && !env.REDIS_SENTINELS)
    return ['REDIS_SENTINELS: is required with REDIS_MASTER_NAME']
  if (!env.REDIS_URL && !env.REDIS_SENTINELS) return ['REDIS_URL: is required']
  return []
}
