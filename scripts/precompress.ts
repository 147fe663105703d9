// The browser's files, compressed once when they are built instead of on every request: the
// built assets never change (their names carry a hash), so each is stored next to itself as
// Brotli (`.br`, quality 11) and gzip (`.gz`, level 9), smaller than the level 3 gzip the
// server gives pages; the server sends the stored file as the browser accepts (server/app.ts).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

const COMPRESSIBLE = /\.(?:js|css|svg|json)$/
// Below this, the headers outweigh what compression saves.
const MIN_BYTES = 1024

/** Writes `name.br` and `name.gz` beside each compressible file of `dir`. */
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
