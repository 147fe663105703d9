import type { LoaderFunctionArgs } from '@remix-run/node'
import { isLanguage, type Language } from '~/i18n/config.ts'
import { getSettings } from '~/models/settings.server.ts'
import { getFixedT, getLanguage } from '~/i18n/i18next.server.ts'
import { PAGE_VARY } from '~/utils/cache-control.ts'
import { escapeHtml } from '~/utils/html.ts'
import { BACKGROUND_COLOR, THEME_COLOR } from '~/utils/web-app.ts'

// The page the service worker (app/service-worker/sw.js) shows when a page cannot be reached:
// kept by it in every language at install (`?lang=ru` …) and shown only when the network is
// gone. It is the same for everyone: no session is read, nothing personal is in it, and it
// needs no script or file from the network.

export async function loader({ request }: LoaderFunctionArgs) {
  const asked = new URL(request.url).searchParams.get('lang')
  const language: Language = isLanguage(asked) ? asked : await getLanguage(request)
  const [t, { siteName }] = await Promise.all([getFixedT(language, 'push'), getSettings()])
  const title = escapeHtml(t('offline.title'))
  const html = `<!DOCTYPE html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="theme-color" content="${THEME_COLOR}">
<title>${title} · ${escapeHtml(siteName)}</title>
<style>
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:${BACKGROUND_COLOR};color:#0f172a;font-family:system-ui,sans-serif}
main{max-width:28rem;padding:2rem;text-align:center}
h1{font-size:1.5rem;margin:0 0 .75rem}
p{color:#475569;line-height:1.5}
a{display:inline-block;margin-top:1rem;padding:.6rem 1.2rem;border-radius:.5rem;background:${THEME_COLOR};color:#fff;font-weight:600;text-decoration:none}
</style>
</head>
<body>
<main>
<p>${escapeHtml(siteName)}</p>
<h1>${title}</h1>
<p>${escapeHtml(t('offline.text'))}</p>
<a href="">${escapeHtml(t('offline.retry'))}</a>
</main>
</body>
</html>
`
  return new Response(html, {
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Language': language,
      // Without `?lang=` the language comes from the cookie or the browser's.
      Vary: PAGE_VARY,
      // The service worker asks for it again at each install; browsers need not keep it.
      'Cache-Control': 'no-cache',
    },
  })
}
