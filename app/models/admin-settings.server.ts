import type { Engine } from '../../engine/index.ts'
import { getSettings } from '~/models/settings.server.ts'
import { announceSettingsChange } from '~/services/settings-sync.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import type { SettingsInput } from '~/validation/admin-settings.ts'

// The system settings form (docs/rules.md#settings). Saving drops what this process keeps of
// them at once, and tells the other instances (app/services/settings-sync.server.ts).

export async function saveSettings(engine: Engine, input: SettingsInput) {
  const { discloseHouseBids, freeBidsNeedPhone, ...rest } = input
  const data = {
    ...rest,
    ...(discloseHouseBids === undefined ? {} : { discloseHouseBids }),
    ...(freeBidsNeedPhone === undefined ? {} : { freeBidsNeedPhone }),
  }
  await getPrisma().settings.upsert({ where: { id: 1 }, create: { id: 1, ...data }, update: data })
  await announceSettingsChange(engine)
  return getSettings()
}
