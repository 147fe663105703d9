import { createHash } from 'node:crypto'
import { supportedLanguages } from '~/i18n/config.ts'
import { getSettings } from '~/models/settings.server.ts'
import { getFixedT } from '~/i18n/i18next.server.ts'
import { workerCode, workerSource } from '~/service-worker/worker-code.server.ts'

// The service worker (app/service-worker/sw.js) at the site's root, so that its scope is every
// page (docs/push.md). Its version changes with its code, the offline pages' texts and the site's
// name: a browser that finds a new version installs it and keeps the offline pages again.

const OFFLINE_PAGES = Object.fromEntries(
  supportedLanguages.map((language) => [language, `/offline?lang=${language}`]),
)

async function version() {
  const { siteName } = await getSettings()
  const hash = createHash('sha256').update(workerSource).update(siteName)
  for (const language of supportedLanguages) {
    const t = await getFixedT(language, 'push')
    hash.update(JSON.stringify(t('offline', { returnObjects: true })))
  }
  return hash.digest('base64url').slice(0, 16)
}

export async function loader() {
  const code = workerCode(await version(), OFFLINE_PAGES)
  return new Response(code, {
    headers: {
      'Content-Type': 'text/javascript; charset=utf-8',
      // Browsers ask for it again on every check for a new version.
      'Cache-Control': 'no-cache',
    },
  })
}
