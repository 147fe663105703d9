// The browser's files, compressed once when they are built instead of on every request: the
// built assets never change (their names carry a hash), so each is stored next to itself as
// Brotli (`.br`, quality 11) and gzip (`.gz`, level 9), smaller than the level 3 gzip the
// server gives pages, and sending them costs no compression CPU.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import type { RequestHandler } from 'express'

const COMPRESSIBLE = /\.(?:js|css|svg|json)$/
// Below this, the headers outweigh what compression saves.
const MIN_BYTES = 1024

/** Writes `name.br` and `name.gz` beside each compressible file of `dir` (scripts/build-server.ts). */
export function precompress(dir: string) {
  let files = 0
  for (const name of readdirSync(dir)) {
    if (!COMPRESSIBLE.test(name)) continue
    const body = readFileSync(path.join(dir, name))
    if (body.length < MIN_BYTES) continue
    writeFileSync(
      path.join(dir, `${name}.br`),
      brotliCompressSync(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      }),
    )
    writeFileSync(path.join(dir, `${name}.gz`), gzipSync(body, { level: 9 }))
    files += 1
  }
  return files
}

/**
 * Serves a file's stored `.br` or `.gz` when the browser takes that encoding: it rewrites the
 * request to that file, with the original's Content-Type, for express.static after it. The
 * compression middleware leaves an answer that already has a Content-Encoding alone.
 */
export function servePrecompressed(dir: string): RequestHandler {
  const stored = new Set(readdirSync(dir))
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next()
    const name = req.path.slice(1)
    if (name.includes('/') || !COMPRESSIBLE.test(name)) return next()
    const encoding = req.acceptsEncodings('br', 'gzip')
    if (encoding !== 'br' && encoding !== 'gzip') return next()
    const suffix = encoding === 'br' ? '.br' : '.gz'
    if (!stored.has(name + suffix)) return next()
    res.vary('Accept-Encoding')
    res.type(path.extname(name))
    res.setHeader('Content-Encoding', encoding)
    req.url = `/${name}${suffix}`
    next()
  }
}
