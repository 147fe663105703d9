import { getPrisma } from '~/utils/db.server.ts'
import type { SettingsInput } from '~/validation/admin-settings.ts'

// The system settings form (docs/rules.md#settings): its one row. Saving it is announced to
// this process and the other instances by app/services/settings-sync.server.ts.

export async function writeSettings(input: SettingsInput) {
  const { discloseHouseBids, freeBidsNeedPhone, winLimit, ...rest } = input
  const data = {
    ...rest,
    ...(discloseHouseBids === undefined ? {} : { discloseHouseBids }),
    ...(freeBidsNeedPhone === undefined ? {} : { freeBidsNeedPhone }),
    ...(winLimit === undefined ? {} : { winLimit }),
  }
  await getPrisma().settings.upsert({ where: { id: 1 }, create: { id: 1, ...data }, update: data })
}
