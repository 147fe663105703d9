import type { Language } from '~/i18n/config.ts'
import type { PublicSettings } from '~/models/settings.server.ts'
import type { SiteStats } from '~/models/site-stats.server.ts'
import type { Consent } from '~/services/consent.server.ts'
import type { Onboarding } from '~/services/onboarding.server.ts'
import type { CurrentUser } from '~/services/session.server.ts'
import type { Toast } from '~/services/toast.server.ts'

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
  /** Where a no-JS form post (language, cookie choice, logout) comes back to. */
  path: string
}
