import type { AlertChoices } from '~/models/alert-choices.server.ts'
import type { AlertChannelName, AlertKind } from '~/models/alert-kinds.ts'
import type { AuctionCardView } from '~/models/auction-card.ts'

/**
 * The profile's alerts part: a page of the watchlist and the alert choices
 * (app/services/alerts/profile.server.ts gathers it, app/components/profile/profile-alerts.tsx
 * shows it).
 */
export type ProfileAlerts = {
  watchlist: AuctionCardView[]
  watchPage: number
  watchPages: number
  choices: AlertChoices
  /** The channels configured on this site, in the order the profile lists them. */
  channels: AlertChannelName[]
  kinds: AlertKind[]
}
