import { getPrisma } from '~/utils/db.server.ts'

// Site settings (docs/rules.md#settings): one row, read on every page for the header and
// footer, so each process keeps it for two seconds; saving in the admin calls invalidateSettings().

export type PublicSettings = {
  currency: string
  currencySymbol: string
  siteName: string
  language: string
  headerTagline: string
  footerDescription: string
  contactAddress: string
  contactPhone: string
  contactEmail: string
  /** Telegram username without the @; empty hides the channel on /support. */
  contactTelegram: string
  discloseHouseBids: boolean
}

/** docs/rules.md#settings: when settings are not loaded, currency and symbol are the local currency word. */
export const defaultSettings: PublicSettings = {
  currency: 'сом',
  currencySymbol: 'сом',
  siteName: 'Аукцион KG',
  language: 'ru',
  headerTagline: '',
  footerDescription: '',
  contactAddress: '',
  contactPhone: '',
  contactEmail: '',
  contactTelegram: '',
  discloseHouseBids: true,
}

/** Another instance's change shows here within this long (this one's at once). */
const TTL_MS = 2_000
let cache: { value: PublicSettings; expires: number } | undefined
let pending: Promise<PublicSettings> | undefined

async function load(): Promise<PublicSettings> {
  const row = await getPrisma().settings.findUnique({ where: { id: 1 } })
  if (!row) return defaultSettings
  return {
    currency: row.currency,
    currencySymbol: row.currencySymbol,
    siteName: row.siteName,
    language: row.language,
    headerTagline: row.headerTagline,
    footerDescription: row.footerDescription,
    contactAddress: row.contactAddress,
    contactPhone: row.contactPhone,
    contactEmail: row.contactEmail,
    contactTelegram: row.contactTelegram,
    discloseHouseBids: row.discloseHouseBids,
  }
}

export async function getSettings(): Promise<PublicSettings> {
  if (cache && cache.expires > Date.now()) return cache.value
  pending ??= load()
    .then((value) => {
      cache = { value, expires: Date.now() + TTL_MS }
      return value
    })
    .finally(() => {
      pending = undefined
    })
  try {
    return await pending
  } catch {
    // Postgres away: the last known settings (or the defaults) keep pages rendering.
    return cache?.value ?? defaultSettings
  }
}

export function invalidateSettings() {
  cache = undefined
}
