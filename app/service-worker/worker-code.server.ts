import source from '~/service-worker/sw.js?raw'

// The service worker's code (app/service-worker/sw.js) as the site serves it at /sw.js
// (app/routes/sw[.]js.ts): its version and its offline pages' addresses in place of the two
// names it leaves for them.

export const workerSource = source

export function workerCode(version: string, offlinePages: Record<string, string>) {
  return source
    .replace('VERSION = __VERSION__', `VERSION = ${JSON.stringify(version)}`)
    .replace('OFFLINE_PAGES = __OFFLINE_PAGES__', `OFFLINE_PAGES = ${JSON.stringify(offlinePages)}`)
}
