import { describe, expect, test } from 'vitest'
import { createCookie } from '@remix-run/node'
import { cookieSecrets, EnvError, parseEnv } from './env.server.ts'

const base = {
  DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/db',
  REDIS_URL: 'redis://127.0.0.1:6379',
}

/** A real site's production settings, with Freedom Pay. */
const realSite = {
  ...base,
  NODE_ENV: 'production',
  SESSION_SECRET: 'p'.repeat(32),
  PUBLIC_ORIGIN: 'https://auction.kg',
  PAYMENT_PROVIDER: 'freedompay',
  FREEDOMPAY_MERCHANT_ID: '548856',
  FREEDOMPAY_SECRET_KEY: 'k'.repeat(16),
}

function issues(env: Record<string, string>): string[] {
  try {
    parseEnv(env)
  } catch (error) {
    if (error instanceof EnvError) return error.issues
    throw error
  }
  return []
}

describe('environment', () => {
  test('a development start needs only the two service URLs', () => {
    const env = parseEnv(base)
    expect(env.PORT).toBe(3000)
    expect(env.NODE_ENV).toBe('development')
    expect(env.SESSION_SECRET.length).toBeGreaterThanOrEqual(32)
  })

  test('each bad value is reported with the variable it belongs to', () => {
    expect(issues({ ...base, PORT: 'eighty' })[0]).toMatch(/^PORT: /)
    expect(issues({ ...base, PORT: '70000' })[0]).toMatch(/^PORT: /)
    expect(issues({ ...base, DATABASE_URL: 'mysql://x@y/z' })[0]).toMatch(/^DATABASE_URL: /)
    expect(issues({ ...base, REDIS_URL: 'not a url' })[0]).toMatch(/^REDIS_URL: /)
    expect(issues({ ...base, LOG_LEVEL: 'loud' })[0]).toMatch(/^LOG_LEVEL: /)
  })

  test('production refuses to start without a strong session secret', () => {
    expect(issues({ ...base, NODE_ENV: 'production' })).toEqual(['SESSION_SECRET: is required'])
    expect(issues({ ...base, NODE_ENV: 'production', SESSION_SECRET: 'short' })[0]).toMatch(
      /^SESSION_SECRET: must be at least 32/,
    )
  })

  test('missing service URLs are named', () => {
    expect(issues({})).toEqual(['DATABASE_URL: is required', 'REDIS_URL: is required'])
  })

  test('the public origin is normalised to scheme://host', () => {
    expect(parseEnv({ ...base, PUBLIC_ORIGIN: 'https://auction.kg/some/path' }).PUBLIC_ORIGIN).toBe(
      'https://auction.kg',
    )
  })

  test('a rotated session secret still verifies cookies signed with the previous ones', async () => {
    const oldSecret = 'o'.repeat(32)
    const newSecret = 'n'.repeat(32)
    expect(cookieSecrets(parseEnv(base)).length).toBe(1)
    const env = parseEnv({
      ...base,
      SESSION_SECRET: newSecret,
      SESSION_SECRET_PREVIOUS: ` ${oldSecret} ,`,
    })
    expect(cookieSecrets(env)).toEqual([newSecret, oldSecret])
    const signedBefore = await createCookie('session', { secrets: [oldSecret] }).serialize('id-1')
    const after = createCookie('session', { secrets: cookieSecrets(env) })
    expect(await after.parse(signedBefore.split(';')[0]!)).toBe('id-1')
    const forged = await createCookie('session', { secrets: ['f'.repeat(32)] }).serialize('id-1')
    expect(await after.parse(forged.split(';')[0]!)).toBeNull()
    expect(issues({ ...base, SESSION_SECRET_PREVIOUS: 'short' })[0]).toMatch(
      /^SESSION_SECRET_PREVIOUS.*: each secret must be at least 32/,
    )
  })

  test('payments: the sandbox by default, its secret derived outside production', () => {
    const env = parseEnv(base)
    expect(env.PAYMENT_PROVIDER).toBe('sandbox')
    expect(env.PAYMENT_SANDBOX_SECRET).toMatch(/^[0-9a-f]{64}$/)
    expect(parseEnv({ ...base, SESSION_SECRET: 'x'.repeat(32) }).PAYMENT_SANDBOX_SECRET).not.toBe(
      env.PAYMENT_SANDBOX_SECRET,
    )
    expect(
      parseEnv({ ...base, PAYMENT_SANDBOX_SECRET: 's'.repeat(16) }).PAYMENT_SANDBOX_SECRET,
    ).toBe('s'.repeat(16))
    expect(issues({ ...base, PAYMENT_PROVIDER: 'paypal' })[0]).toMatch(/^PAYMENT_PROVIDER: /)
    expect(issues({ ...base, PAYMENT_SANDBOX_SECRET: 'short' })[0]).toMatch(
      /^PAYMENT_SANDBOX_SECRET: /,
    )
  })

  test('production runs the sandbox only as a declared demo, with a secret given on purpose', () => {
    const production = {
      ...base,
      NODE_ENV: 'production',
      SESSION_SECRET: 'p'.repeat(32),
      PUBLIC_ORIGIN: 'https://auction.kg',
    }
    const [demo, secret] = issues(production)
    expect(demo).toMatch(/^PAYMENT_SANDBOX_DEMO: the sandbox payment provider is for demos only/)
    expect(secret).toBe(
      'PAYMENT_SANDBOX_SECRET: is required in production while PAYMENT_PROVIDER is sandbox',
    )
    expect(issues({ ...production, PAYMENT_SANDBOX_SECRET: 'q'.repeat(32) })).toEqual([demo])
    expect(issues({ ...production, PAYMENT_SANDBOX_DEMO: '1' })).toEqual([secret])
    const env = parseEnv({
      ...production,
      PAYMENT_SANDBOX_DEMO: '1',
      PAYMENT_SANDBOX_SECRET: 'q'.repeat(32),
    })
    expect(env.PAYMENT_SANDBOX_SECRET).toBe('q'.repeat(32))
    expect(env.PAYMENT_SANDBOX_DEMO).toBe(true)
  })

  test('Freedom Pay needs its merchant id and secret key; the rest has defaults', () => {
    const freedom = { ...base, PAYMENT_PROVIDER: 'freedompay' }
    expect(issues(freedom)).toEqual([
      'FREEDOMPAY_MERCHANT_ID: is required while PAYMENT_PROVIDER is freedompay',
      'FREEDOMPAY_SECRET_KEY: is required while PAYMENT_PROVIDER is freedompay',
    ])
    const complete = {
      ...freedom,
      FREEDOMPAY_MERCHANT_ID: '548856',
      FREEDOMPAY_SECRET_KEY: 'k'.repeat(16),
    }
    const env = parseEnv(complete)
    expect(env.FREEDOMPAY_API_URL).toBe('https://api.freedompay.kg')
    expect(env.FREEDOMPAY_TEST_MODE).toBe('0')
    expect(issues({ ...complete, FREEDOMPAY_MERCHANT_ID: 'abc' })[0]).toMatch(
      /^FREEDOMPAY_MERCHANT_ID: /,
    )
    expect(issues({ ...complete, FREEDOMPAY_API_URL: 'ftp://x' })[0]).toMatch(
      /^FREEDOMPAY_API_URL: /,
    )
    expect(issues({ ...complete, FREEDOMPAY_TEST_MODE: 'yes' })[0]).toMatch(
      /^FREEDOMPAY_TEST_MODE: must be 0 or 1/,
    )
    // Production with Freedom Pay needs no sandbox switch.
    const production = {
      ...complete,
      NODE_ENV: 'production',
      SESSION_SECRET: 'p'.repeat(32),
      PUBLIC_ORIGIN: 'https://auction.kg',
    }
    expect(issues(production)).toEqual([])
  })

  test('production talks to Freedom Pay over https only (a loopback address excepted)', () => {
    const production = realSite
    expect(issues({ ...production, FREEDOMPAY_API_URL: 'http://api.freedompay.kg' })).toEqual([
      'FREEDOMPAY_API_URL: must be an https:// URL in production',
    ])
    for (const local of ['http://127.0.0.1:9000', 'http://localhost:9000', 'http://[::1]:9000']) {
      expect(issues({ ...production, FREEDOMPAY_API_URL: local })).toEqual([])
    }
    // Outside production a test double may be anywhere.
    expect(
      issues({ ...production, NODE_ENV: 'development', FREEDOMPAY_API_URL: 'http://fake:1' }),
    ).toEqual([])
  })

  test('DEMO_MODE: refused in production unless the site is a declared demo', () => {
    expect(parseEnv(base).DEMO_MODE).toBe(false)
    expect(parseEnv({ ...base, DEMO_MODE: '1' }).DEMO_MODE).toBe(true)
    const real = realSite
    expect(issues(real)).toEqual([])
    const [refused, ...others] = issues({ ...real, DEMO_MODE: '1' })
    expect(refused).toMatch(/^DEMO_MODE: the demo keeper moves and relists auctions/)
    expect(others).toEqual([])
    // Real payments stay refused even with the sandbox's demo declaration beside them.
    expect(issues({ ...real, DEMO_MODE: '1', PAYMENT_SANDBOX_DEMO: '1' })).toEqual([refused])
    const demo = {
      ...real,
      PAYMENT_PROVIDER: 'sandbox',
      PAYMENT_SANDBOX_DEMO: '1',
      PAYMENT_SANDBOX_SECRET: 'q'.repeat(32),
      DEMO_MODE: '1',
    }
    expect(parseEnv(demo).DEMO_MODE).toBe(true)
  })

  test('production requires PUBLIC_ORIGIN: callback URLs never come from a Host header', () => {
    const production = {
      ...base,
      NODE_ENV: 'production',
      SESSION_SECRET: 'p'.repeat(32),
      PAYMENT_SANDBOX_DEMO: '1',
      PAYMENT_SANDBOX_SECRET: 'q'.repeat(32),
    }
    expect(issues(production)).toEqual([
      'PUBLIC_ORIGIN: is required in production: the public https:// address of the site ' +
        '(payment callbacks and return URLs are built from it)',
    ])
    expect(issues({ ...production, PUBLIC_ORIGIN: 'https://auction.kg' })).toEqual([])
    expect(parseEnv(base).PUBLIC_ORIGIN).toBeUndefined()
  })

  test('production: the site and the Bot API over https only (a loopback address excepted)', () => {
    expect(issues({ ...realSite, PUBLIC_ORIGIN: 'http://auction.kg' })).toEqual([
      'PUBLIC_ORIGIN: must be an https:// address in production (a loopback address excepted): ' +
        'payment URLs and session cookies would travel in the clear',
    ])
    expect(issues({ ...realSite, TELEGRAM_API_ROOT: 'http://telegram-proxy.internal' })).toEqual([
      'TELEGRAM_API_ROOT: must be an https:// URL in production (a loopback address excepted): ' +
        'the bot token would travel in the clear',
    ])
    for (const local of ['http://127.0.0.1:3000', 'http://localhost:3000', 'http://[::1]:3000']) {
      expect(issues({ ...realSite, PUBLIC_ORIGIN: local, TELEGRAM_API_ROOT: local })).toEqual([])
    }
    // Outside production a test's servers may be anywhere.
    const development = { ...realSite, NODE_ENV: 'development' }
    expect(
      issues({ ...development, PUBLIC_ORIGIN: 'http://site:1', TELEGRAM_API_ROOT: 'http://bot:2' }),
    ).toEqual([])
  })

  test('TRUST_PROXY: a hop count or the proxies’ addresses, never "trust anyone"', () => {
    expect(parseEnv(base).TRUST_PROXY).toBe(0)
    expect(parseEnv({ ...base, TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2)
    expect(
      parseEnv({ ...base, TRUST_PROXY: 'loopback, 10.0.0.0/8,2001:db8::/32' }).TRUST_PROXY,
    ).toEqual(['loopback', '10.0.0.0/8', '2001:db8::/32'])
    expect(parseEnv({ ...base, TRUST_PROXY: '192.0.2.7' }).TRUST_PROXY).toEqual(['192.0.2.7'])
    for (const value of [
      'true',
      '11',
      '-1',
      '10.0.0.0/33',
      '10.0.0.300',
      'loopback,,10.0.0.1',
      'proxy',
    ])
      expect(issues({ ...base, TRUST_PROXY: value })[0], value).toMatch(/^TRUST_PROXY: must be/)
  })

  test('Redis through Sentinels: host:port list and a primary name, validated together', () => {
    const sentinels = { DATABASE_URL: base.DATABASE_URL, REDIS_MASTER_NAME: 'penny' }
    const env = parseEnv({
      ...sentinels,
      REDIS_SENTINELS: '10.0.0.1:26379, sentinel-b.local:26380,[2001:db8::1]:26381',
    })
    expect(env.REDIS_SENTINELS).toEqual([
      { host: '10.0.0.1', port: 26379 },
      { host: 'sentinel-b.local', port: 26380 },
      { host: '2001:db8::1', port: 26381 },
    ])
    expect(env.REDIS_URL).toBeUndefined()
    for (const value of ['10.0.0.1', '10.0.0.1:0', 'a:70000', 'a:1,,b:2', 'redis://a:1'])
      expect(issues({ ...sentinels, REDIS_SENTINELS: value }), value).toEqual([
        'REDIS_SENTINELS: must be host:port entries, comma-separated',
      ])
    expect(issues({ ...base, REDIS_SENTINELS: 'a:1' })).toEqual([
      'REDIS_MASTER_NAME: is required with REDIS_SENTINELS',
    ])
    expect(issues({ ...base, REDIS_MASTER_NAME: 'penny' })).toEqual([
      'REDIS_SENTINELS: is required with REDIS_MASTER_NAME',
    ])
    expect(
      issues({ ...sentinels, REDIS_SENTINELS: 'a:1', REDIS_MASTER_NAME: 'no spaces' })[0],
    ).toMatch(/^REDIS_MASTER_NAME: /)
    expect(issues({ DATABASE_URL: base.DATABASE_URL })).toEqual(['REDIS_URL: is required'])
  })

  test('waiting for replicas is off by default; its count and timeout are bounded', () => {
    expect(parseEnv(base)).toMatchObject({ REDIS_WAIT_REPLICAS: 0, REDIS_WAIT_TIMEOUT_MS: 1_000 })
    expect(
      parseEnv({ ...base, REDIS_WAIT_REPLICAS: '1', REDIS_WAIT_TIMEOUT_MS: '250' }),
    ).toMatchObject({ REDIS_WAIT_REPLICAS: 1, REDIS_WAIT_TIMEOUT_MS: 250 })
    for (const value of ['-1', '1.5', 'one', '11'])
      expect(issues({ ...base, REDIS_WAIT_REPLICAS: value })[0], value).toMatch(
        /^REDIS_WAIT_REPLICAS: /,
      )
    for (const value of ['0', '60001', 'soon'])
      expect(issues({ ...base, REDIS_WAIT_TIMEOUT_MS: value })[0], value).toMatch(
        /^REDIS_WAIT_TIMEOUT_MS: /,
      )
  })

  test('Socket.IO connections per address: 100 by default, a whole number from 1', () => {
    expect(parseEnv(base).SOCKETS_PER_ADDRESS).toBe(100)
    expect(parseEnv({ ...base, SOCKETS_PER_ADDRESS: '3' }).SOCKETS_PER_ADDRESS).toBe(3)
    for (const value of ['0', '-1', '1.5', 'many', '1000001'])
      expect(issues({ ...base, SOCKETS_PER_ADDRESS: value })[0], value).toMatch(
        /^SOCKETS_PER_ADDRESS: /,
      )
  })
})
