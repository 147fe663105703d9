import { getSettings } from '~/models/settings.server.ts'
import { APP_ICONS, BACKGROUND_COLOR, THEME_COLOR } from '~/utils/web-app.ts'

// The web app manifest (W3C Web Application Manifest; docs/push.md): what a phone needs to
// install the site as an app. The names follow the site settings; it is the same for everyone.

/** Home screens show about this many characters under an icon. */
const SHORT_NAME_MAX = 12

export async function loader() {
  const settings = await getSettings()
  const name = settings.siteName
  const manifest = {
    id: '/',
    name,
    short_name: name.length <= SHORT_NAME_MAX ? name : `${name.slice(0, SHORT_NAME_MAX - 1)}…`,
    ...(settings.headerTagline ? { description: settings.headerTagline } : {}),
    lang: settings.language,
    start_url: '/',
    scope: '/',
    display: 'standalone',
    orientation: 'any',
    theme_color: THEME_COLOR,
    background_color: BACKGROUND_COLOR,
    icons: APP_ICONS,
  }
  return new Response(JSON.stringify(manifest), {
    headers: {
      'Content-Type': 'application/manifest+json; charset=utf-8',
      // Shared caches keep it a minute: a change of the site's name shows soon enough.
      'Cache-Control': 'public, max-age=0, s-maxage=60',
    },
  })
}
