import { getPrisma } from '~/utils/db.server.ts'

// Site settings (docs/rules.md#settings): one row, read on every page for the header and
// footer, so each process keeps it until a change is announced (at most two seconds).

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
  /** The 5 free bids wait for a verified phone (docs/rules.md#verified-phone-and-free-bids). */
  freeBidsNeedPhone: boolean
  /**
   * At most this many wins per person in 7 days, per verified phone while freeBidsNeedPhone is
   * on; 0 no limit (docs/rules.md#fair-play-auctions).
   */
  winLimit: number
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
  freeBidsNeedPhone: false,
  winLimit: 0,
}

/**
 * How long a process keeps the settings it read: the net for a change made outside the app (an
 * admin's save is announced at once: app/services/settings-sync.server.ts).
 */
const TTL_MS = 2_000

/**
 * What this process keeps of the settings. The server's own bundle and the Remix build each
 * hold a copy of this module; both work on this one record, kept on globalThis, so that a change
 * dropped by one is dropped for both.
 */
type Shared = {
  /** Raised by every change: a read begun before it is not kept. */
  generation: number
  cache?: { value: PublicSettings; expires: number; generation: number }
  pending?: { generation: number; value: Promise<PublicSettings> }
  /** Told of every change (the page cache: server/app.ts). */
  listeners: Set<() => void>
}
const shared: Shared = ((globalThis as typeof globalThis & { __settings?: Shared }).__settings ??= {
  generation: 0,
  listeners: new Set(),
})

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
    freeBidsNeedPhone: row.freeBidsNeedPhone,
    winLimit: row.winLimit,
  }
}

export async function getSettings(): Promise<PublicSettings> {
  const { cache, generation } = shared
  if (cache && cache.generation === generation && cache.expires > Date.now()) return cache.value
  let pending = shared.pending
  if (pending?.generation !== generation) {
    const value = load().then((settings) => {
      // A change saved while this read ran may be missing from it: kept only if none came.
      if (shared.generation === generation)
        shared.cache = { value: settings, expires: Date.now() + TTL_MS, generation }
      return settings
    })
    const started = { generation, value }
    const done = () => {
      if (shared.pending === started) shared.pending = undefined
    }
    value.then(done, done)
    shared.pending = pending = started
  }
  try {
    return await pending.value
  } catch {
    // Postgres away: the last known settings (or the defaults) keep pages rendering.
    return shared.cache?.value ?? defaultSettings
  }
}

/** The settings changed (saved here, or announced by another instance): read them again. */
export function settingsChanged() {
  shared.generation += 1
  shared.cache = undefined
  for (const listener of shared.listeners) listener()
}

/** Calls `listener` on every change; returns what removes it. */
export function onSettingsChange(listener: () => void): () => void {
  shared.listeners.add(listener)
  return () => shared.listeners.delete(listener)
}
