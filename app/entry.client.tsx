import { RemixBrowser } from '@remix-run/react'
import i18next from 'i18next'
import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { I18nextProvider, initReactI18next } from 'react-i18next'
import { getInitialNamespaces } from 'remix-i18next/client'
import { lazyBackend } from '~/i18n/backend.client.ts'
import { i18nOptions } from '~/i18n/config.ts'
import { registerServiceWorker } from '~/utils/service-worker.client.ts'

async function hydrate() {
  await i18next
    .use(initReactI18next)
    .use(lazyBackend)
    .init({
      ...i18nOptions,
      lng: document.documentElement.lang,
      ns: getInitialNamespaces(),
    })
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </I18nextProvider>,
    )
  })
}

void hydrate()
registerServiceWorker()
