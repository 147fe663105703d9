import { Writable } from 'node:stream'
import { type EntryContext, type AppLoadContext } from '@remix-run/node'
import { RemixServer } from '@remix-run/react'
import { createInstance, type i18n as I18n } from 'i18next'
import { renderToPipeableStream } from 'react-dom/server'
import { I18nextProvider, initReactI18next } from 'react-i18next'
import { i18nOptions } from '~/i18n/config.ts'
import { resources } from '~/i18n/resources.server.ts'
import { visitorLanguage } from '~/i18n/detect.server.ts'
import { getLanguage, i18next } from '~/i18n/i18next.server.ts'
import { errorFields, isUnavailable, log, requestContext } from '~/utils/logger.server.ts'
import { NonceProvider } from '~/utils/nonce.ts'
import { StylesProvider } from '~/utils/site-styles.tsx'
import siteStyles from '~/tailwind.css?inline'

// Background work server.ts starts once the build is loaded (it cannot import app code itself).
export { startPaymentReconciler } from '~/services/payments/reconcile.server.ts'
export { startDemoKeeper } from '~/services/demo/keeper.server.ts'
export { startAlerts } from '~/services/alerts/start.server.ts'

export const streamTimeout = 5_000

/**
 * One i18next instance per language and set of namespaces, made on first use and shared by
 * every render after it: a render only reads translations, and making an instance costs more
 * than rendering a small page.
 */
const instances = new Map<string, Promise<I18n>>()
function translationsFor(lng: string, ns: string[]): Promise<I18n> {
  const key = `${lng}|${ns.join(',')}`
  let made = instances.get(key)
  if (!made) {
    const instance = createInstance()
    made = instance
      .use(initReactI18next)
      .init({ ...i18nOptions, lng, ns, resources })
      .then(() => instance)
    made.catch(() => instances.delete(key))
    instances.set(key, made)
  }
  return made
}

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const instance = await translationsFor(
    await getLanguage(request),
    i18next.getRouteNamespaces(remixContext),
  )
  const nonce = loadContext.cspNonce

  // A page that failed because Postgres or Redis is out of reach says so, with a 503.
  const unavailable = await requestContext()?.unavailable
  if (unavailable && responseStatusCode >= 500) {
    responseStatusCode = 503
    responseHeaders.set('Retry-After', '5')
    const errors = remixContext.staticHandlerContext.errors
    for (const routeId of Object.keys(errors ?? {})) {
      errors![routeId] = {
        status: 503,
        statusText: 'Service Unavailable',
        internal: false,
        data: unavailable,
      }
    }
  }

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false
    const timeout = setTimeout(() => abort(), streamTimeout + 1000)
    // No page waits on deferred data, so the whole document is ready at once: it is collected
    // and sent as one piece (one write, one compression call) instead of many small chunks.
    const chunks: Buffer[] = []
    const document = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk)
        done()
      },
      final(done) {
        clearTimeout(timeout)
        responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
        resolve(
          new Response(Buffer.concat(chunks), {
            headers: responseHeaders,
            status: responseStatusCode,
          }),
        )
        done()
      },
    })
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <StylesProvider value={siteStyles}>
          <I18nextProvider i18n={instance}>
            <RemixServer
              context={remixContext}
              url={request.url}
              abortDelay={streamTimeout}
              nonce={nonce}
            />
          </I18nextProvider>
        </StylesProvider>
      </NonceProvider>,
      {
        nonce,
        // The document is sent whole (above), so a part that waited for its code (a lazy
        // component) is written in its place however long it is, not outlined into a hidden
        // node that only a script puts in place: the page must read the same without scripts.
        progressiveChunkSize: Number.MAX_SAFE_INTEGER,
        onAllReady() {
          shellRendered = true
          pipe(document)
        },
        onShellError(error: unknown) {
          clearTimeout(timeout)
          reject(error)
        },
        onError(error: unknown) {
          responseStatusCode = 500
          if (shellRendered) console.error(error)
        },
      },
    )
  })
}

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return
  const context = requestContext()
  if (context && isUnavailable(error)) {
    // Postgres or Redis is out of reach: "try again" with a 503 (server/outage.ts), logged once.
    context.unavailable = outageMessage(request)
    log.warn('request failed: a service is unavailable', errorFields(error))
    return
  }
  log.error('request failed', errorFields(error))
}

/** The 503 message in the visitor's language, without asking Postgres for the site default. */
async function outageMessage(request: Request): Promise<string> {
  const language = await visitorLanguage(
    request.headers.get('Cookie'),
    request.headers.get('Accept-Language'),
  )
  const common = (resources[language]?.common ?? {}) as { api?: { unavailable?: string } }
  return common.api?.unavailable ?? 'Service Unavailable'
}
