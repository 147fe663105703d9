import { getSettings, invalidateSettings } from '~/models/settings.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import type { SettingsInput } from '~/validation/admin.ts'

// The system settings form (docs/rules.md#settings). Saving drops this
// process's cache; other instances pick the change up within the 5-minute cache time.

export async function saveSettings(input: SettingsInput) {
  const { discloseHouseBids, ...rest } = input
  const data = { ...rest, ...(discloseHouseBids === undefined ? {} : { discloseHouseBids }) }
  await getPrisma().settings.upsert({ where: { id: 1 }, create: { id: 1, ...data }, update: data })
  invalidateSettings()
  return getSettings()
}
