// The site's service worker (docs/push.md), served at /sw.js by app/routes/sw[.]js.ts, which
// puts the version and the offline pages' addresses in place of the two names below.
// - /assets/ (hashed build files, never changed under one name): from the cache, else the network.
// - Pages: always from the network, never kept (a page may be one person's own); only when the
//   network is gone, the offline page kept at install, in the person's language.
// - Pushes: shown as notifications; a click focuses or opens the alert's page.
/* global __VERSION__, __OFFLINE_PAGES__ */

const VERSION = __VERSION__
/** Language -> address of the offline page in it; the first is the default. */
const OFFLINE_PAGES = __OFFLINE_PAGES__
const PAGES_CACHE = `offline-${VERSION}`
const ASSETS_CACHE = `assets-${VERSION}`
/** Where the last language a page of the site was shown in is kept (a worker may be stopped). */
const LANGUAGE_KEY = '/__service-worker/language'
/** Build files kept at most; the oldest go first. */
const ASSETS_MAX = 300

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(PAGES_CACHE)
      .then((cache) =>
        cache.addAll(
          Object.values(OFFLINE_PAGES).map((url) => new Request(url, { cache: 'reload' })),
        ),
      )
      .then(() => self.skipWaiting()),
  )
})

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names
            .filter((name) => name !== PAGES_CACHE && name !== ASSETS_CACHE)
            .map((name) => caches.delete(name)),
        ),
      )
      .then(() => self.clients.claim()),
  )
})

self.addEventListener('message', (event) => {
  const data = event.data
  if (data && data.type === 'language' && Object.hasOwn(OFFLINE_PAGES, data.language)) {
    event.waitUntil(
      caches
        .open(PAGES_CACHE)
        .then((cache) => cache.put(LANGUAGE_KEY, new Response(data.language))),
    )
  }
})

self.addEventListener('fetch', (event) => {
  const request = event.request
  if (request.method !== 'GET') return
  const url = new URL(request.url)
  if (url.origin !== self.location.origin) return
  if (url.pathname.startsWith('/assets/')) event.respondWith(fromCacheFirst(request))
  else if (request.mode === 'navigate') event.respondWith(fromNetworkOrOffline(request))
})

async function fromCacheFirst(request) {
  const cache = await caches.open(ASSETS_CACHE)
  const kept = await cache.match(request)
  if (kept) return kept
  const response = await fetch(request)
  if (response.ok && response.type === 'basic') {
    await cache.put(request, response.clone())
    const keys = await cache.keys()
    await Promise.all(
      keys.slice(0, Math.max(0, keys.length - ASSETS_MAX)).map((key) => cache.delete(key)),
    )
  }
  return response
}

async function fromNetworkOrOffline(request) {
  try {
    return await fetch(request)
  } catch (error) {
    const cache = await caches.open(PAGES_CACHE)
    const language = await cache.match(LANGUAGE_KEY).then((kept) => (kept ? kept.text() : null))
    const fallback = OFFLINE_PAGES[language] || Object.values(OFFLINE_PAGES)[0]
    const page = await cache.match(fallback)
    if (page) return page
    throw error
  }
}

self.addEventListener('push', (event) => {
  let alert = {}
  try {
    alert = event.data ? event.data.json() : {}
  } catch {
    alert = { body: event.data ? event.data.text() : '' }
  }
  const title = typeof alert.title === 'string' && alert.title ? alert.title : self.location.host
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof alert.body === 'string' ? alert.body : '',
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      data: { url: sameOrigin(alert.url) },
    }),
  )
})

/** Only the site's own pages are opened from a notification; the site's root without one. */
function sameOrigin(address) {
  if (typeof address !== 'string' || !address) return self.location.origin + '/'
  try {
    const url = new URL(address, self.location.origin)
    return url.origin === self.location.origin ? url.href : self.location.origin + '/'
  } catch {
    return self.location.origin + '/'
  }
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close()
  const target =
    (event.notification.data && event.notification.data.url) || self.location.origin + '/'
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => client.url === target)
      if (open) return open.focus()
      return self.clients.openWindow(target)
    }),
  )
})

// The push service replaced the subscription: the new one is kept for the person signed in on
// this browser, the old one forgotten (the calls carry the session cookie as any page's do).
self.addEventListener('pushsubscriptionchange', (event) => {
  const old = event.oldSubscription
  const options = old && old.options
  if (!options || !options.applicationServerKey) return
  event.waitUntil(
    self.registration.pushManager
      .subscribe({ userVisibleOnly: true, applicationServerKey: options.applicationServerKey })
      .then((fresh) => sendSubscription('POST', fresh.toJSON()))
      .then(() => sendSubscription('DELETE', { endpoint: old.endpoint })),
  )
})

function sendSubscription(method, body) {
  return fetch('/api/users/push-subscriptions', {
    method,
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
}
