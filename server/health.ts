import type { Redis } from 'ioredis'
import type { Engine } from '../engine/index.ts'

/** What the app server is given (server/app.ts), and what `/readyz` checks. */
export type Services = {
  engine: Engine
  redis: Redis
  /** Resolves when Postgres answers a trivial query. */
  pingDatabase: () => Promise<void>
}

export type Readiness = {
  ready: boolean
  redis: 'ok' | 'down'
  database: 'ok' | 'down'
  /** Outbox entries not yet written to Postgres; null while Redis is down. */
  outboxLag: number | null
}

const TIMEOUT_MS = 2000
/**
 * How long one round of checks answers every `/readyz` request: a flood of them costs one round
 * per second, whoever sends them.
 */
export const READINESS_TTL_MS = 1000

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timeout')), TIMEOUT_MS)),
  ])
}

/** `/readyz`: the instance can serve only when both Redis and Postgres answer. */
export async function checkReadiness(services: Services): Promise<Readiness> {
  const [redis, database, outboxLag] = await Promise.all([
    withTimeout(services.redis.ping()).then(
      () => 'ok' as const,
      () => 'down' as const,
    ),
    withTimeout(services.pingDatabase()).then(
      () => 'ok' as const,
      () => 'down' as const,
    ),
    // Written entries leave the stream, so its length is what Postgres still lacks.
    withTimeout(services.redis.xlen(services.engine.keys.outbox)).catch(() => null),
  ])
  return { ready: redis === 'ok' && database === 'ok', redis, database, outboxLag }
}

/**
 * The readiness report, checked at most once per `ttlMs`: requests meanwhile (and during a
 * round) share the last round's answer.
 */
export function readinessProbe(
  services: Services,
  ttlMs = READINESS_TTL_MS,
): () => Promise<Readiness> {
  let last: { at: number; report: Promise<Readiness> } | undefined
  return () => {
    const now = Date.now()
    if (!last || now - last.at >= ttlMs) last = { at: now, report: checkReadiness(services) }
    return last.report
  }
}

/** What the public learns: ready or not, nothing of the checks. */
export function publicReadiness(report: Readiness) {
  return { status: report.ready ? ('ready' as const) : ('not ready' as const) }
}
