import { PAGES_NS } from '~/components/static-page.tsx'
import { publicPage } from '~/utils/cache-control.ts'
import { i18nRoute } from '~/utils/i18n-route.ts'
import { titleMeta } from '~/utils/meta.ts'

// The route exports the site's public text pages share (/how-it-works, /support, /auction-rules,
// /privacy-policy, /terms-of-service): a page re-exports those it has no reason to write itself,
// `export { ErrorBoundary, headers, meta } from '~/components/static-route.ts'`.

const i18n = i18nRoute(PAGES_NS)
/** The "pages" namespace (a page with more namespaces writes its own, with i18nRoute). */
export const handle = i18n.handle
export const clientLoader = i18n.clientLoader

/** The same page for every visitor of a language and cookie choices (app/utils/cache-control.ts). */
export const headers = publicPage(10)

export const meta = titleMeta

export { GeneralErrorBoundary as ErrorBoundary } from '~/components/error-boundary.tsx'
