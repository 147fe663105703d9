import { getSettings } from '~/models/settings.server.ts'
import { json } from '~/utils/api.server.ts'

// docs/rules.md#settings: the public settings, cached for 5 minutes.
export async function loader() {
  const settings = await getSettings()
  return json(
    {
      currencySymbol: settings.currencySymbol,
      currency: settings.currency,
      siteName: settings.siteName,
      language: settings.language,
      headerTagline: settings.headerTagline,
      footerDescription: settings.footerDescription,
    },
    { headers: { 'Cache-Control': 'public, max-age=300' } },
  )
}
