import type { Engine } from '../../../engine/index.ts'
import { toCardView } from '~/models/auction-card.ts'
import { getAlertChoices, saveAlertChoices } from '~/models/alert-choices.server.ts'
import { forVisitors } from '~/models/house-bids.ts'
import { getSettings } from '~/models/settings.server.ts'
import { getWatchlist } from '~/models/watch.server.ts'
import { ALERT_KINDS } from '~/models/alert-kinds.ts'
import { enabledChannels } from '~/services/alerts/channels.server.ts'
import { ALERTS_NS } from '~/services/alerts/message.server.ts'
import { getFixedT } from '~/i18n/i18next.server.ts'
import { redirectWithToast } from '~/services/toast.server.ts'
import type { ProfileAlerts } from '~/types/profile-alerts.ts'
import { DomainError } from '~/utils/domain-error.ts'

// The profile's watchlist and alert choices (app/components/profile/profile-alerts.tsx).

/** The profile's alerts part, with page `watchPage` of the watchlist (20 a page). */
export async function getProfileAlerts(
  engine: Engine,
  userId: string,
  watchPage = 1,
): Promise<ProfileAlerts> {
  const [watchlist, choices, { discloseHouseBids }] = await Promise.all([
    getWatchlist(engine, userId, watchPage),
    getAlertChoices(userId),
    getSettings(),
  ])
  const cards = watchlist.auctions.map(toCardView)
  return {
    watchlist: forVisitors({ auctions: cards }, discloseHouseBids).auctions,
    watchPage: watchlist.page,
    watchPages: watchlist.totalPages,
    choices,
    channels: enabledChannels().map((channel) => channel.name),
    kinds: [...ALERT_KINDS],
  }
}

/** An hour field of the form: empty is none; anything but 0-23 stays as it is, for the check. */
function hourField(value: FormDataEntryValue | null): unknown {
  if (value === null || value === '') return null
  const hour = Number(value)
  return Number.isInteger(hour) ? hour : value
}

/** The profile's alerts form (intent `alerts`): saves, and comes back with a toast. */
export async function handleAlertChoicesForm(request: Request, userId: string, form: FormData) {
  const t = await getFixedT(request, ALERTS_NS)
  const channels = enabledChannels().map((channel) => channel.name)
  const on = form.getAll('on').map(String)
  try {
    await saveAlertChoices(userId, channels, on, {
      quietFrom: hourField(form.get('quietFrom')),
      quietTo: hourField(form.get('quietTo')),
    })
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    return redirectWithToast('/profile#alerts', {
      type: 'error',
      title: t('profile.saveFailed'),
      description: t(error.key),
    })
  }
  return redirectWithToast('/profile#alerts', { type: 'success', description: t('profile.saved') })
}
