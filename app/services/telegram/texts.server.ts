import type { Context } from 'grammy'
import { getFixedT } from '~/i18n/i18next.server.ts'
import { getSettings } from '~/models/settings.server.ts'
import { botLanguage } from './config.server.ts'

// The bot's texts in the language of whoever wrote to it (docs/rules.md#telegram), with the
// site's name filled in.

export async function textsOf(ctx: Context) {
  const language = botLanguage(ctx.from?.language_code)
  const [t, { siteName, currencySymbol }] = await Promise.all([
    getFixedT(language, ['telegram', 'common', 'watch']),
    getSettings(),
  ])
  return {
    language,
    site: siteName,
    currency: currencySymbol,
    /** i18next's own function, for the decisions the site shares (their texts need no site name). */
    fixedT: t,
    t: (key: string, values: Record<string, unknown> = {}) => t(key, { site: siteName, ...values }),
  }
}

export type BotTexts = Awaited<ReturnType<typeof textsOf>>
