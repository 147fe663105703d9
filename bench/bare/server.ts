// The bare app's server, in a process of its own (bench/bare.ts starts it): what `remix-serve`
// does, with the site's Express adapter: compression, the built files, Remix's request handler.
// It tells its parent the port it listens on.
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { createRequestHandler } from '@remix-run/express'
import type { ServerBuild } from '@remix-run/node'
import compression from 'compression'
import express from 'express'

const root = process.argv[2]
if (!root) throw new Error('usage: server.ts BUILT_APP_FOLDER')
const build = (await import(
  pathToFileURL(path.join(root, 'build/server/index.js')).href
)) as ServerBuild

const app = express()
app.disable('x-powered-by')
app.use(compression())
app.use(
  '/assets',
  express.static(path.join(root, 'build/client/assets'), { immutable: true, maxAge: '1y' }),
)
app.use(express.static(path.join(root, 'build/client'), { maxAge: '1h' }))
app.all('*', createRequestHandler({ build, mode: 'production' }))
const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address()
  process.send?.({ port: typeof address === 'object' && address ? address.port : 0 })
})
process.on('SIGTERM', () => server.close(() => process.exit(0)))
