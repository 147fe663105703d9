// Debian's Chromium as the browser tests and bench/phone.ts start it (never a downloaded one),
// and the signal that a page of the site has hydrated. No test runner here: a benchmark uses it.
import { chromium } from 'playwright-core'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
/**
 * Debian's Chromium headless shell (package chromium-headless-shell, built from the same
 * sources and version as chromium): the same engine without the browser's own user interface,
 * at about two thirds of the CPU per page (docs/decisions/068-tests-in-the-headless-shell.md).
 */
const HEADLESS_SHELL =
  process.env.CHROMIUM_HEADLESS_SHELL_PATH ?? '/usr/bin/chromium-headless-shell'

/**
 * What a browser test or benchmark runs in: `shell`, the headless shell, for pages; `browser`,
 * the whole browser, for what only it does (notifications a service worker shows, a redirect
 * out to another site's app link) and for measuring what a person's browser does.
 */
export type ChromiumKind = 'shell' | 'browser'

export const chromiumPaths: Record<ChromiumKind, string> = {
  shell: HEADLESS_SHELL,
  browser: CHROMIUM,
}

/** Chromium, headless, without the sandbox and the background work a profile would do. */
export function launchChromium(kind: ChromiumKind = 'browser') {
  return chromium.launch({
    executablePath: chromiumPaths[kind],
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  })
}

/**
 * Run in the page: once it has hydrated, the time since navigation start (ms), else false. The
 * language switcher (in the header of every page, app/components/language-switcher.tsx) drops its
 * OK button once its script runs, since with JavaScript a choice applies on change. Until then a
 * click is a plain form post or link, not what the page does with JavaScript.
 */
export const hydratedAt = () => {
  const switchers = document.querySelectorAll('form[action="/set-language"]')
  const hydrated =
    switchers.length > 0 &&
    [...switchers].every((form) => !form.querySelector('button[type="submit"]'))
  return hydrated ? performance.now() : false
}

export const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }
