import { SERVICE_WORKER_URL } from '~/utils/web-app.ts'

// Registers the site's service worker (app/service-worker/sw.js, docs/push.md) once the page
// has loaded, and tells it the page's language, for its offline page. Only with JavaScript:
// without it nothing is registered and every page works as it always did.

function tellLanguage(registration: ServiceWorkerRegistration) {
  const worker = registration.active ?? registration.waiting ?? registration.installing
  worker?.postMessage({ type: 'language', language: document.documentElement.lang })
}

export function registerServiceWorker() {
  if (!('serviceWorker' in navigator)) return
  const register = () => {
    navigator.serviceWorker
      .register(SERVICE_WORKER_URL, { scope: '/' })
      .then(() => navigator.serviceWorker.ready)
      .then((registration) => {
        tellLanguage(registration)
        // The language switcher changes <html lang> in place.
        new MutationObserver(() => tellLanguage(registration)).observe(document.documentElement, {
          attributes: true,
          attributeFilter: ['lang'],
        })
      })
      .catch(() => {
        // No worker (a private window, a browser setting): the site works without it.
      })
  }
  if (document.readyState === 'complete') register()
  else window.addEventListener('load', register, { once: true })
}
