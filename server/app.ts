import { randomUUID } from 'node:crypto'
import { createServer, type Server as HttpServer } from 'node:http'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { createRequestHandler } from '@remix-run/express'
import type { ServerBuild } from '@remix-run/node'
import compression from 'compression'
import expressStaticGzip from 'express-static-gzip'
import express from 'express'
import { Server as SocketServer } from 'socket.io'
import type { ViteDevServer } from 'vite'
import {
  errorFields,
  log,
  withRequestContext,
  type RequestContext,
} from '../app/utils/logger.server.ts'
import { renewedSessionCookie } from '../app/services/session.server.ts'
import { onSettingsChange } from '../app/models/settings.server.ts'
import { answerOutagesWith503 } from './outage.ts'
import { pageCache } from './page-cache.ts'
import { imageStoreOf } from '../app/services/images/store.server.ts'
import { serveImages } from './images.ts'
import type { Env } from '../app/utils/env.server.ts'
import { clientAddress, trustedProxies } from './client-address.ts'
import { publicReadiness, readinessProbe, type Services } from './health.ts'
import { metricsHandler, readsInternals, timeRequests } from './metrics.ts'
import { socketGuard } from './socket-guard.ts'
import { limitRequestBodies, rejectHostileUrls } from './input.ts'
import { telegramConfig } from '../app/utils/env-telegram.server.ts'
import { sameOriginMutations } from './origin.ts'
import { securityHeaders, storeNothingUnlessSaid, withoutDocumentHeaders } from './security.ts'

/** An answer that took longer is logged as slow (a warning). */
const SLOW_REQUEST_MS = 5_000

/** How long a shutdown waits for answers still being sent before closing their connections. */
const CLOSE_GRACE_MS = 5_000

export type AppServer = {
  httpServer: HttpServer
  io: SocketServer
  /** The Remix build (its entry module carries the app's background work: server.ts). */
  serverBuild: () => Promise<ServerBuild>
  /** Stops taking connections, closes sockets and the development server. */
  close: () => Promise<void>
}

export async function createAppServer(env: Env, services: Services): Promise<AppServer> {
  const production = env.NODE_ENV === 'production'
  const app = express()
  app.disable('x-powered-by')
  // One rule for the client's address, for Express's `req.ip` and for Socket.IO's handshakes.
  const trust = trustedProxies(env.TRUST_PROXY)
  app.set('trust proxy', trust)

  // Every request is timed: a failed or slow one is logged (docs/operations.md#logs-and-checks).
  app.use((req, res, next) => {
    const requestId = randomUUID()
    const context: RequestContext = { requestId }
    // Calls about one auction name it in their path.
    const auction = /^\/api\/(?:admin\/)?(?:auctions|auction-stats)\/([\w-]{1,64})(?:\/|$)/.exec(
      req.path,
    )
    if (auction && auction[1] !== 'slug') context.auctionId = auction[1]
    res.locals.requestId = requestId
    res.setHeader('X-Request-Id', requestId)
    res.locals.context = context
    const started = process.hrtime.bigint()
    const elapsedMs = () => Number(process.hrtime.bigint() - started) / 1e6
    res.on('finish', () => {
      const fields = {
        requestId,
        userId: context.userId,
        auctionId: context.auctionId,
        method: req.method,
        path: req.path,
        status: res.statusCode,
        ms: elapsedMs(),
      }
      if (res.statusCode >= 500 && res.statusCode !== 503) log.error('request failed', fields)
      else if (res.statusCode === 503) log.warn('request answered 503', fields)
      else if (fields.ms >= SLOW_REQUEST_MS) log.warn('slow request', fields)
      else log.debug('request', fields)
    })
    // A caller that gave up after waiting long (a browser leaving a page cancels its requests
    // at once: not worth a line).
    res.on('close', () => {
      const ms = elapsedMs()
      if (res.writableFinished || ms < SLOW_REQUEST_MS) return
      log.warn('slow request closed before its answer was sent', {
        requestId,
        method: req.method,
        path: req.path,
        ms,
      })
    })
    // Every log line written while handling it carries the request id (and user, auction).
    withRequestContext(context, next)
  })

  app.use(timeRequests)
  app.get('/metrics', metricsHandler(env.METRICS_TOKEN, { production }))
  app.get('/healthz', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store')
    res.json({ status: 'ok' })
  })
  // Ready or not for everyone; the checks and the outbox lag only for who may read the metrics.
  const readiness = readinessProbe(services)
  app.get('/readyz', async (req, res) => {
    const report = await readiness()
    const shown = publicReadiness(report)
    res.setHeader('Cache-Control', 'no-store')
    res
      .status(report.ready ? 200 : 503)
      .json(
        readsInternals(req, env.METRICS_TOKEN, { production }) ? { ...shown, ...report } : shown,
      )
  })

  app.use(
    securityHeaders({
      production,
      tagManager: Boolean(env.GTM_ID),
      // The Buy form's answer redirects to Freedom Pay's payment page (docs/payments.md); the
      // profile's "Link Telegram" form to the bot's t.me link (app/routes/account/profile_.telegram.ts).
      formTargets: [
        ...(env.PAYMENT_PROVIDER === 'freedompay' ? [new URL(env.FREEDOMPAY_API_URL).origin] : []),
        ...(telegramConfig(env) ? ['https://t.me'] : []),
      ],
    }),
  )
  app.use(storeNothingUnlessSaid())
  app.use(limitRequestBodies())
  app.use(sameOriginMutations(env.PUBLIC_ORIGIN))
  app.use(rejectHostileUrls())

  const root = process.cwd()
  const productionBuild = production
    ? ((await import(pathToFileURL(path.join(root, 'build/server/index.js')).href)) as ServerBuild)
    : undefined
  // The answers to API calls that change something are a few dozen bytes (a bid's is ~90):
  // compressing them costs more CPU than it saves bytes.
  // zlib level 3 rather than the default 6: a page's gzip costs about half the CPU for a few
  // per cent more bytes (kept pages are compressed once, at Brotli 6, in server/page-cache.ts).
  const compress = compression({ level: 3 })
  app.use((req, res, next) => {
    if (req.method !== 'GET' && req.path.startsWith('/api/')) return next()
    compress(req, res, next)
  })
  // After compression, so that a replaced answer is still compressed.
  app.use((req, res, next) => {
    answerOutagesWith503(res.locals.context as RequestContext, req, res)
    next()
  })

  let vite: ViteDevServer | undefined
  let build: ServerBuild | (() => Promise<ServerBuild>)
  if (productionBuild) {
    // Hashed file names never change content: cache them for a year.
    // Each is stored compressed beside itself when built (scripts/build-server.ts): the stored
    // Brotli or gzip file is sent as the browser accepts, with no compression work per request.
    app.use(
      '/assets',
      expressStaticGzip(path.join(root, 'build/client/assets'), {
        enableBrotli: true,
        orderPreference: ['br', 'gz'],
        index: false,
        // Never revalidated (immutable): no ETag or Last-Modified to send along.
        serveStatic: {
          immutable: true,
          maxAge: '1y',
          etag: false,
          lastModified: false,
          setHeaders: withoutDocumentHeaders,
        },
      }),
    )
    app.use(express.static(path.join(root, 'build/client'), { maxAge: '1h' }))
    build = productionBuild
  } else {
    const { createServer: createViteServer } = await import('vite')
    vite = await createViteServer({ server: { middlewareMode: true }, appType: 'custom' })
    app.use(vite.middlewares)
    app.use(express.static('public', { maxAge: '1h' }))
    const devServer = vite
    build = () => devServer.ssrLoadModule('virtual:remix/server-build') as Promise<ServerBuild>
  }

  // Product images, from the image store (a folder or a bucket): year-long caching, the
  // app's 404 page for anything else (server/images.ts).
  app.use('/images', serveImages(imageStoreOf(env)))

  // After compression and the files: what it keeps is uncompressed, compressed once per encoding.
  // Every page shows the site settings: an admin's change (here or on another instance) drops
  // the kept pages at once (app/models/settings.server.ts).
  const pages = pageCache()
  onSettingsChange(() => pages.clear())
  app.use(pages)

  // While a rotated secret is still accepted, a session cookie signed with it is set again,
  // signed with the current one (docs/operations.md, "Rotate SESSION_SECRET"). A route that sets
  // the cookie itself (a login, a logout) adds its own after this one, which the browser keeps.
  if (env.SESSION_SECRET_PREVIOUS.length > 0) {
    app.use((req, res, next) => {
      renewedSessionCookie(req.headers.cookie).then((renewed) => {
        if (renewed) res.append('Set-Cookie', renewed)
        next()
      }, next)
    })
  }

  app.all(
    '*',
    createRequestHandler({
      build,
      mode: env.NODE_ENV,
      getLoadContext: (req, res) => ({
        cspNonce: String(res.locals.cspNonce),
        clientIp: req.ip ?? req.socket.remoteAddress ?? '',
        requestId: String(res.locals.requestId),
        engine: services.engine,
      }),
    }),
  )

  app.use(
    (error: unknown, _req: express.Request, res: express.Response, next: express.NextFunction) => {
      log.error('unhandled request error', {
        requestId: res.locals.requestId,
        ...errorFields(error),
      })
      if (res.headersSent) return next(error)
      res.status(500).json({ error: 'Internal Server Error' })
    },
  )

  const httpServer = createServer(app)
  const guard = socketGuard({
    perAddress: env.SOCKETS_PER_ADDRESS,
    addressOf: (req) => clientAddress(req, trust),
  })
  const io = new SocketServer(httpServer, {
    serveClient: false,
    transports: ['websocket', 'polling'],
    ...guard.options,
  })
  guard.attach(io)

  return {
    httpServer,
    io,
    serverBuild: () => (typeof build === 'function' ? build() : Promise.resolve(build)),
    close: async () => {
      // Idle keep-alive connections close at once; an answer still being sent (to a client that
      // stopped reading, say) gets a few seconds before its connection is closed too.
      const grace = setTimeout(() => httpServer.closeAllConnections(), CLOSE_GRACE_MS)
      try {
        await new Promise<void>((resolve) => {
          io.close(() => resolve())
          httpServer.closeIdleConnections()
        })
      } finally {
        clearTimeout(grace)
      }
      await vite?.close()
    },
  }
}
