import type { RequestHandler } from 'express'
import {
  contentTypeOf,
  IMAGE_CACHE_CONTROL,
  isImageFile,
  type ImageStore,
} from '../app/services/images/store.server.ts'

/**
 * Serves `/images/{key}/{width}.{webp|jpg}` from the image store, whichever it is. A file's
 * address names its content (app/utils/product-image.ts), so it is cached for a year and its
 * address is its ETag. What is not a kept file falls through to the app's 404 page.
 */
export function serveImages(store: ImageStore): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next()
    const file = req.path.slice(1)
    if (!isImageFile(file)) return next()
    store.get(file).then((found) => {
      if (!found) return next()
      res.setHeader('Cache-Control', IMAGE_CACHE_CONTROL)
      res.setHeader('ETag', `"${file}"`)
      res.setHeader('Content-Type', contentTypeOf(file))
      if (req.fresh || req.method === 'HEAD') {
        found.body.destroy()
        if (req.fresh) return void res.status(304).end()
        res.setHeader('Content-Length', found.size)
        return void res.end()
      }
      res.setHeader('Content-Length', found.size)
      found.body.on('error', (error) => res.destroy(error))
      found.body.pipe(res)
    }, next)
  }
}
