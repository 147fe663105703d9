import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { describe, expect, inject, test } from 'vitest'
import { METRICS_TOKEN } from '../setup/stack.ts'

// The production server's start and health: a bad environment stops it with a message, and
// /healthz, /readyz and /metrics answer as they should.

const root = path.resolve(import.meta.dirname, '../..')

const baseUrl = () => inject('baseUrl')

/** The built server started in production with a sound environment but for `extra`. */
const startProduction = (extra: Record<string, string>) =>
  spawnSync('node', ['build/server.js'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: inject('e2eDatabaseUrl'),
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      SESSION_SECRET: 'a-long-enough-secret-for-production-use-1234',
      ...extra,
    },
    encoding: 'utf8',
    timeout: 20_000,
  })

/** A GET of the running server's `path` with the metrics token as the bearer (or `token`). */
const withToken = (path: string, token = METRICS_TOKEN) =>
  fetch(`${baseUrl()}${path}`, { headers: { Authorization: `Bearer ${token}` } })

describe('the production server', () => {
  test('a bad environment value stops the start with a message naming the variable', () => {
    for (const [name, value] of [
      ['PORT', 'eighty'],
      ['DATABASE_URL', 'mysql://nobody@nowhere/db'],
      ['SESSION_SECRET', 'short'],
    ] as const) {
      const result = startProduction({ [name]: value })
      expect(result.status).toBe(1)
      expect(result.stderr).toContain(`${name}: `)
      expect(result.stderr).not.toMatch(/\bat .*\.js:\d+/)
    }
  })

  test('production refuses the sandbox provider without the demo switch, and says why', () => {
    const start = (extra: Record<string, string>) =>
      startProduction({
        PAYMENT_PROVIDER: 'sandbox',
        PAYMENT_SANDBOX_SECRET: 'a-sandbox-secret-for-this-test-0123',
        PAYMENT_SANDBOX_DEMO: '',
        ...extra,
      })
    const refused = start({})
    expect(refused.status).toBe(1)
    expect(refused.stderr).toContain(
      'PAYMENT_SANDBOX_DEMO: the sandbox payment provider is for demos only',
    )
    const freedom = start({ PAYMENT_PROVIDER: 'freedompay', FREEDOMPAY_MERCHANT_ID: 'x1' })
    expect(freedom.status).toBe(1)
    expect(freedom.stderr).toContain('FREEDOMPAY_MERCHANT_ID: ')
  })

  test('/healthz answers while /readyz checks Redis and Postgres', async () => {
    const health = await fetch(`${baseUrl()}/healthz`)
    expect(health.status).toBe(200)
    expect(await health.json()).toEqual({ status: 'ok' })
    const ready = await withToken('/readyz')
    expect(ready.status).toBe(200)
    const report = (await ready.json()) as Record<string, unknown>
    expect(report).toMatchObject({ ready: true, redis: 'ok', database: 'ok' })
    expect(report.outboxLag).toBeGreaterThanOrEqual(0)
  })

  test('/metrics: Prometheus figures for the bearer of the token only', async () => {
    // In production, not even this host reads them without the token.
    const bare = await fetch(`${baseUrl()}/metrics`)
    expect(bare.status).toBe(401)
    expect(await bare.json()).toEqual({ error: 'Metrics are not public' })
    const response = await withToken('/metrics')
    expect(response.status).toBe(200)
    const text = await response.text()
    for (const name of [
      'pa_http_request_duration_seconds_bucket',
      'pa_outbox_lag',
      'pa_sockets',
      'pa_process_cpu_seconds_total',
    ]) {
      expect(text, name).toContain(name)
    }
    // The e2e server runs the engine's workers alone, so it holds the lease.
    expect(text).toMatch(/^pa_engine_leader 1$/m)
    const wrong = await withToken('/metrics', `${METRICS_TOKEN}x`)
    expect(wrong.status).toBe(401)
  })
})
