import { RemixBrowser } from '@remix-run/react'
import i18next from 'i18next'
import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { I18nextProvider, initReactI18next } from 'react-i18next'
import { lazyBackend } from '~/i18n/backend.client.ts'
import { defaultNS, i18nOptions } from '~/i18n/config.ts'
import { readPageTexts } from '~/i18n/page-texts.tsx'
import { registerServiceWorker } from '~/utils/service-worker.client.ts'

async function hydrate() {
  // The page's texts came with it (app/i18n/page-texts.tsx); other namespaces and languages are
  // loaded as chunks when a navigation needs them. Every language has every text (the locales'
  // test), so the browser needs no fallback language, which would be a fetch before hydrating.
  const lng = document.documentElement.lang
  const texts = readPageTexts()
  const ns = Object.keys(texts)
  await i18next
    .use(initReactI18next)
    .use(lazyBackend)
    .init({
      ...i18nOptions,
      lng,
      fallbackLng: false,
      ns: ns.length > 0 ? ns : [defaultNS],
      resources: { [lng]: texts },
      partialBundledLanguages: true,
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
