import { randomUUID } from 'node:crypto'
import { createServer, type Server as HttpServer } from 'node:http'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { createRequestHandler } from '@remix-run/express'
import { createRequestHandler as createFetchHandler, type ServerBuild } from '@remix-run/node'
import compression from 'compression'
import express from 'express'
import type { Redis } from 'ioredis'
import type { Engine } from '../engine/index.ts'
import type { bidCall as BidCall } from '../app/services/bid-call.server.ts'
import type {
  bidFetcherPost as BidFetcherPost,
  bidFormPost as BidFormPost,
} from '../app/services/bid-action.server.ts'
import type { ownPages as OwnPages } from '../app/services/own-page.server.ts'
import { Server as SocketServer } from 'socket.io'
import type { ViteDevServer } from 'vite'
import {
  errorFields,
  log,
  withRequestContext,
  type RequestContext,
} from '../app/services/logger.server.ts'
import { answerOutagesWith503 } from './outage.ts'
import { anonymousPageCache } from './page-cache.ts'
import { ownPageFill } from './own-pages.ts'
import type { Env } from '../app/utils/env.server.ts'
import { checkReadiness } from './health.ts'
import { metricsHandler, timeRequests } from './metrics.ts'
import { limitRequestBodies, rejectHostileUrls } from './input.ts'
import { sameOriginMutations } from './origin.ts'
import { securityHeaders } from './security.ts'

export type Services = {
  engine: Engine
  redis: Redis
  /** Resolves when Postgres answers a trivial query. */
  pingDatabase: () => Promise<void>
}

/** How long a shutdown waits for answers still being sent before closing their connections. */
const CLOSE_GRACE_MS = 5_000

/** What app/entry.server.tsx exports for this server besides Remix's own. */
type EntryExtras = {
  bidCall: typeof BidCall
  bidFormPost: typeof BidFormPost
  bidFetcherPost: typeof BidFetcherPost
  ownPages: typeof OwnPages
}

function serveBidCall(bidCall: typeof BidCall, engine: Engine): express.RequestHandler {
  return (req, res, next) => {
    bidCall(engine, {
      auctionId: req.params.id ?? '',
      cookie: req.headers.cookie,
      acceptLanguage: req.headers['accept-language'],
    }).then((answer) => {
      res.status(answer.status)
      res.setHeader('Content-Type', 'application/json; charset=utf-8')
      res.setHeader('Cache-Control', 'no-store')
      for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value)
      res.end(JSON.stringify(answer.body))
    }, next)
  }
}

/** A bid form's body is ~40 bytes; anything much larger is some other form. */
const MAX_BID_FORM_BYTES = 1024
/** The fields of a bid button's post from a page with JavaScript, each once. */
const FETCHER_FIELDS = ['auctionId', 'intent', 'via'].join()
const SLUG_DATA = /^(.+)\.data$/

/**
 * The bid buttons' posts, the busiest the pages get, answered here ahead of Remix with the
 * routes' own outcome:
 * - without JavaScript, the auction page's form (`POST /auction/{slug}`, `intent=bid`): the
 *   route's redirect with its toast;
 * - with JavaScript, a fetcher's post to the page's `.data` address (`intent=bid`,
 *   `via=fetcher`, `auctionId`; from the auction page, a card on the home page or /auctions):
 *   the action's data as Remix's single fetch sends it.
 * Any other post to these pages (prebid, auto-bid, buy now, a form with other fields) is handed
 * on untouched: its body is read only to look and then put back for Remix to read.
 */
function serveBidPosts(
  entry: Pick<EntryExtras, 'bidFormPost' | 'bidFetcherPost'>,
  engine: Engine,
): express.RequestHandler {
  return (req, res, next) => {
    const length = Number(req.get('content-length'))
    if (
      !req.is('application/x-www-form-urlencoded') ||
      !(length > 0 && length <= MAX_BID_FORM_BYTES)
    )
      return next()
    // Which page: the auction page (by its slug), or a card's page (the form names the auction).
    const slug = req.params.slug
    const pageSlug = slug === undefined ? undefined : (SLUG_DATA.exec(slug)?.[1] ?? slug)
    const viaFetcher = slug === undefined || pageSlug !== slug
    // Remix reads `/_root.data` as the index route's only with `?index`, and a `.data` address
    // with a trailing slash as no data request at all.
    if ((req.path === '/_root.data' && !('index' in req.query)) || req.path.endsWith('/'))
      return next()
    peekBody(req, length)
      .then((body) => {
        const form = body ? new URLSearchParams(body.toString('latin1')) : null
        if (
          !form ||
          form.get('intent') !== 'bid' ||
          [...form.values()].some((v) => v.includes('\0'))
        )
          return next()
        const headers = {
          cookie: req.headers.cookie,
          acceptLanguage: req.headers['accept-language'],
        }
        if (!viaFetcher && pageSlug !== undefined) {
          if (form.has('via')) return next()
          return entry.bidFormPost(engine, { slug: pageSlug, ...headers }).then(
            ({ location, setCookie }) => {
              if (setCookie) res.append('Set-Cookie', setCookie)
              res.status(302).setHeader('Location', location)
              res.end()
            },
            () => next(),
          )
        }
        if (form.get('via') !== 'fetcher' || [...form.keys()].sort().join() !== FETCHER_FIELDS)
          return next()
        const target =
          pageSlug === undefined ? { auctionId: form.get('auctionId') ?? '' } : { slug: pageSlug }
        return entry.bidFetcherPost(engine, { ...target, ...headers }).then(
          ({ status, body }) => {
            res.status(status)
            res.setHeader('Content-Type', 'text/x-script; charset=utf-8')
            res.setHeader('X-Remix-Response', 'yes')
            res.setHeader('Vary', 'Cookie, Accept-Encoding')
            res.end(body)
          },
          () => next(),
        )
      })
      .catch(next)
  }
}

/**
 * Reads a small request body without taking it: once `length` bytes are in (or the body ended
 * short, or failed), they are put back into the request for the next reader.
 */
function peekBody(req: express.Request, length: number): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let size = 0
    const finish = (whole: boolean) => {
      req.off('readable', pull)
      req.off('end', short)
      req.off('error', short)
      req.off('close', short)
      const body = Buffer.concat(chunks)
      if (body.length > 0) req.unshift(body)
      resolve(whole ? body : null)
    }
    const short = () => finish(false)
    function pull() {
      let chunk: Buffer | null
      while (size < length && (chunk = req.read() as Buffer | null) !== null) {
        chunks.push(chunk)
        size += chunk.length
      }
      if (size >= length) finish(size === length)
    }
    req.on('readable', pull)
    req.on('end', short)
    req.on('error', short)
    req.on('close', short)
  })
}

export type AppServer = {
  httpServer: HttpServer
  io: SocketServer
  /** Stops taking connections, closes sockets and the development server. */
  close: () => Promise<void>
}

export async function createAppServer(env: Env, services: Services): Promise<AppServer> {
  const production = env.NODE_ENV === 'production'
  const app = express()
  app.disable('x-powered-by')
  app.set('trust proxy', env.TRUST_PROXY)

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
    res.on('finish', () => {
      const fields = {
        requestId,
        userId: context.userId,
        auctionId: context.auctionId,
        method: req.method,
        path: req.path,
        status: res.statusCode,
        ms: Number(process.hrtime.bigint() - started) / 1e6,
      }
      if (res.statusCode >= 500 && res.statusCode !== 503) log.error('request failed', fields)
      else if (res.statusCode === 503) log.warn('request answered 503', fields)
      else log.debug('request', fields)
    })
    // Every log line written while handling it carries the request id (and user, auction).
    withRequestContext(context, next)
  })

  app.use(timeRequests)
  app.get('/metrics', metricsHandler(env.METRICS_TOKEN))
  app.get('/healthz', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store')
    res.json({ status: 'ok' })
  })
  app.get('/readyz', async (_req, res) => {
    const report = await checkReadiness(services)
    res.setHeader('Cache-Control', 'no-store')
    res.status(report.ready ? 200 : 503).json(report)
  })

  app.use(securityHeaders({ production, tagManager: Boolean(env.GTM_ID) }))
  app.use(limitRequestBodies())
  app.use(sameOriginMutations(env.PUBLIC_ORIGIN))
  app.use(rejectHostileUrls())

  const root = process.cwd()
  const productionBuild = production
    ? ((await import(pathToFileURL(path.join(root, 'build/server/index.js')).href)) as ServerBuild)
    : undefined
  const extras = productionBuild?.entry.module as Partial<EntryExtras> | undefined
  // A bid button's post is answered with a redirect and no body, or a few dozen bytes of data:
  // ahead of compression, whose wrapping would cost more than the whole answer.
  if (extras?.bidFormPost && extras.bidFetcherPost)
    app.post(
      ['/auction/:slug', '/_root.data', '/auctions.data'],
      serveBidPosts(
        { bidFormPost: extras.bidFormPost, bidFetcherPost: extras.bidFetcherPost },
        services.engine,
      ),
    )
  // The answers to API calls that change something are a few dozen bytes (a bid's is ~90):
  // compressing them costs more CPU than it saves bytes.
  const compress = compression()
  app.use((req, res, next) => {
    if (req.method !== 'GET' && req.path.startsWith('/api/')) return next()
    compress(req, res, next)
  })
  // After compression: a kept page is kept uncompressed and compressed for each visitor.
  app.use(anonymousPageCache({ enabled: production }))
  // Pages signed-in people share: rendered once a second, each person's parts filled in.
  app.use(
    ownPageFill({
      ownPage:
        productionBuild && extras?.ownPages
          ? extras.ownPages({
              engine: services.engine,
              render: createFetchHandler(productionBuild, env.NODE_ENV),
            })
          : undefined,
    }),
  )
  // After compression, so that a replaced answer is still compressed.
  app.use((req, res, next) => {
    answerOutagesWith503(res.locals.context as RequestContext, req, res)
    next()
  })

  let vite: ViteDevServer | undefined
  let build: ServerBuild | (() => Promise<ServerBuild>)
  if (productionBuild) {
    // Hashed file names never change content: cache them for a year.
    app.use(
      '/assets',
      express.static(path.join(root, 'build/client/assets'), { immutable: true, maxAge: '1y' }),
    )
    app.use(express.static(path.join(root, 'build/client'), { maxAge: '1h' }))
    build = productionBuild
    // Bids render nothing: answered here, with the route modules' own functions.
    if (extras?.bidCall)
      app.post('/api/auctions/:id/bid', serveBidCall(extras.bidCall, services.engine))
  } else {
    const { createServer: createViteServer } = await import('vite')
    vite = await createViteServer({ server: { middlewareMode: true }, appType: 'custom' })
    app.use(vite.middlewares)
    app.use(express.static('public', { maxAge: '1h' }))
    const devServer = vite
    build = () => devServer.ssrLoadModule('virtual:remix/server-build') as Promise<ServerBuild>
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
  const io = new SocketServer(httpServer, {
    serveClient: false,
    transports: ['websocket', 'polling'],
  })

  return {
    httpServer,
    io,
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
