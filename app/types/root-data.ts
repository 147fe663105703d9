import type { Language } from '~/i18n/config.ts'
import type { PublicSettings } from '~/models/settings.server.ts'
import type { SiteStats } from '~/models/site-stats.server.ts'
import type { Consent } from '~/types/consent.ts'
import type { CurrentUser } from '~/types/current-user.ts'
import type { Onboarding } from '~/types/onboarding.ts'
import type { Toast } from '~/validation/toast.ts'

/**
 * What the root loader (app/root.tsx) gives every page; the app shell reads it through
 * app/utils/hooks.ts.
 */
export type RootData = {
  language: Language
  user: CurrentUser | null
  onboarding: Onboarding
  settings: PublicSettings
  stats: SiteStats | null
  toast: Toast | null
  consent: Consent
  /** The tag manager is loaded only for visitors who allowed analytics. */
  gtmId: string | null
  /** The page is open as the bot's Mini App, inside Telegram (docs/rules.md#telegram-mini-app). */
  telegram: boolean
  /** The pages' meta description. */
  description: string
  /** Where a no-JS form post (language, cookie choice, logout) comes back to. */
  path: string
}
