import { timingSafeEqual } from 'node:crypto'
import type { Request, RequestHandler } from 'express'
import { collectDefaultMetrics } from 'prom-client'
import type { Server as SocketServer } from 'socket.io'
import type { Engine } from '../engine/index.ts'
import {
  bidsAccepted,
  gaugeFrom,
  httpDuration,
  metricsRegistry,
} from '../app/services/metrics.server.ts'

// `/metrics` for Prometheus. It shows internals (lease holder, outbox lag), so it is not public:
// with METRICS_TOKEN set, a scraper sends `Authorization: Bearer <token>`. In production it is
// closed without a token (a proxy on the same host connects from this host too); elsewhere a
// direct connection from this host (no proxy header) may read it without one.

let defaultsCollected = false

/** Engine, socket and process metrics of this instance. */
export function registerMetrics(engine: Engine, io: SocketServer) {
  if (!defaultsCollected) {
    collectDefaultMetrics({ prefix: 'pa_' })
    defaultsCollected = true
  }
  let leader = false
  engine.on('leader', (event) => {
    leader = event.leader
  })
  engine.on('bid', (event) => {
    bidsAccepted.inc({ bidder: event.bid.bot ? 'bot' : 'user' })
  })
  gaugeFrom(
    'pa_engine_leader',
    'Whether this instance holds the engine lease (1) or not (0)',
    () => (leader ? 1 : 0),
  )
  gaugeFrom('pa_outbox_lag', 'Outbox entries not yet written to Postgres', () =>
    engine.redis.xlen(engine.keys.outbox),
  )
  gaugeFrom(
    'pa_sockets',
    'Socket.IO connections open on this instance',
    () => io.engine.clientsCount,
  )
}

/** Times every request into the latency histogram. */
export const timeRequests: RequestHandler = (req, res, next) => {
  const end = httpDuration.startTimer({ method: req.method, area: areaOf(req.path) })
  res.on('finish', () => end({ status: String(res.statusCode) }))
  next()
}

function areaOf(path: string) {
  if (path.startsWith('/api/')) return 'api'
  if (path.startsWith('/assets/') || /\.[a-z0-9]+$/i.test(path)) return 'asset'
  return 'page'
}

function fromThisHost(req: Request) {
  const address = req.socket.remoteAddress ?? ''
  const loopback = address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1'
  return loopback && !req.headers['x-forwarded-for'] && !req.headers.forwarded
}

function tokenMatches(header: string | undefined, token: string) {
  const given = Buffer.from(/^Bearer (.+)$/.exec(header ?? '')?.[1] ?? '')
  const expected = Buffer.from(token)
  return given.length === expected.length && timingSafeEqual(given, expected)
}

/**
 * Whether the request may read the instance's internals (`/metrics`, `/readyz`'s details): the
 * bearer of METRICS_TOKEN; without a token, nobody in production and this host otherwise.
 */
export function readsInternals(
  req: Request,
  token: string | undefined,
  { production }: { production: boolean },
): boolean {
  if (token) return tokenMatches(req.headers.authorization, token)
  return !production && fromThisHost(req)
}

export function metricsHandler(
  token: string | undefined,
  { production }: { production: boolean },
): RequestHandler {
  return async (req, res) => {
    res.setHeader('Cache-Control', 'no-store')
    if (!token && production) {
      res.status(403).json({ error: 'Metrics are off: set METRICS_TOKEN' })
      return
    }
    if (!readsInternals(req, token, { production })) {
      res.status(token ? 401 : 403).json({ error: 'Metrics are not public' })
      return
    }
    res.setHeader('Content-Type', metricsRegistry.contentType)
    res.send(await metricsRegistry.metrics())
  }
}
