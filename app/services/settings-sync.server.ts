import type { Engine } from '../../engine/index.ts'
import { writeSettings } from '~/models/admin-settings.server.ts'
import { getSettings, settingsChanged } from '~/models/settings.server.ts'
import { errorFields, log } from '~/utils/logger.server.ts'
import type { SettingsInput } from '~/validation/admin-settings.ts'

// An admin's save of the settings shows at once on the instance that saved it and within
// SETTINGS_POLL_MS (plus a page's render) on every other (docs/rules.md#settings,
// docs/decisions/045-settings-everywhere-at-once.md): the save raises a counter in Redis, which
// every instance looks at a few times a second.

/** How often an instance looks at the settings counter. */
export const SETTINGS_POLL_MS = 250

/**
 * An admin's save of the settings form: written, handed to the bid engine (the win limit and the
 * verified-phone rule it counts wins by: docs/rules.md#fair-play-auctions), announced, and read
 * back as pages will see it.
 */
export async function saveSettings(engine: Engine, input: SettingsInput) {
  await writeSettings(input)
  await engine.loadRules()
  await announceSettingsChange(engine)
  return getSettings()
}

/** After a save: this process forgets the old settings at once, the others when they look. */
export async function announceSettingsChange(engine: Engine) {
  settingsChanged()
  try {
    await engine.redis.incr(engine.keys.settings)
  } catch (error) {
    // Saved in Postgres all the same: the others read it again within their 2 s.
    log.warn('settings change not announced to other instances', errorFields(error))
  }
}

/** Looks at the counter every `everyMs`; a move means another instance saved the settings. */
export function watchSettings(engine: Engine, everyMs = SETTINGS_POLL_MS) {
  let seen: string | null | undefined
  let looking = false
  const look = async () => {
    if (looking) return
    looking = true
    try {
      const version = await engine.redis.get(engine.keys.settings)
      if (seen !== undefined && version !== seen) settingsChanged()
      seen = version
    } catch {
      // Redis out of reach: the settings' own expiry (2 s) still applies meanwhile.
    } finally {
      looking = false
    }
  }
  void look()
  const timer = setInterval(() => void look(), everyMs)
  timer.unref()
  return { stop: () => clearInterval(timer) }
}
