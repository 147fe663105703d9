// Every request body the app reads goes through readBody: its bytes are counted as they arrive,
// so a body sent in chunks (no Content-Length) is stopped at the limit like a declared one.
// Reading `request.formData()`, `.text()`, `.json()` or `.arrayBuffer()` anywhere else is refused
// by the lint rules (eslint.config.js).

/** The largest body of a page's form post. */
export const MAX_FORM_BYTES = 1024 * 1024
/** The largest body of a JSON call or a payment provider's notification. */
export const MAX_JSON_BYTES = 64 * 1024
/**
 * The largest body of a form that may carry a product image: the image's own limit
 * (MAX_IMAGE_BYTES, app/services/images/product-image.server.ts, 8 MiB) and the other fields.
 */
export const MAX_UPLOAD_BYTES = 9 * 1024 * 1024

/**
 * The addresses whose forms may carry a product image: an auction's create and edit (as a page,
 * and as the `.data` address Remix posts to with JavaScript), the API's upload.
 */
const UPLOAD_PATHS = /^\/(api\/admin\/images|admin\/auctions\/(new|[^/]+\/edit)(\.data)?)\/?$/

/** The largest body any route at `pathname` reads. */
export function bodyLimitOf(pathname: string) {
  return UPLOAD_PATHS.test(pathname) ? MAX_UPLOAD_BYTES : MAX_FORM_BYTES
}

/** A body over its limit: answered 413. */
export class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`request body over ${limit} bytes`)
  }
}

/**
 * The whole body, at most `limit` bytes; past that, BodyTooLarge. What is left unread stays on
 * the connection and is thrown away once the answer is sent (server/input.ts): cancelling the
 * stream here would close the connection before the 413 could be sent.
 * A body that breaks off on the way rejects with the stream's error.
 */
export async function readBody(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  if (Number(request.headers.get('content-length') ?? 0) > limit) throw new BodyTooLarge(limit)
  if (!request.body) return new Uint8Array(0)
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      size += value.byteLength
      if (size > limit) throw new BodyTooLarge(limit)
      chunks.push(value)
    }
  } finally {
    reader.releaseLock()
  }
  const body = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    body.set(chunk, at)
    at += chunk.byteLength
  }
  return body
}

/** The body as UTF-8 text (readBody's limits). */
export async function readBodyText(request: Request, limit: number): Promise<string> {
  return new TextDecoder().decode(await readBody(request, limit))
}
