// The installable app's look (docs/push.md): the colours the manifest, the root document's
// theme-color and the offline page share, and where its icons are (public/icons/, drawn by
// scripts/app-icons.ts from public/favicon.svg).

/** The brand's amber (public/favicon.svg): the browser's bar in the installed app. */
export const THEME_COLOR = '#d97706'
/** The page's background (Tailwind's slate-50 on <body>, app/root.tsx). */
export const BACKGROUND_COLOR = '#f8fafc'

export const APP_ICONS = [
  { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
  { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
  { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
] as const

export const APPLE_TOUCH_ICON = '/icons/apple-touch-icon.png'

/** The service worker's address: at the root, so that its scope is the whole site. */
export const SERVICE_WORKER_URL = '/sw.js'
