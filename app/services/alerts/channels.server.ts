import type { AlertChannel } from '~/services/alerts/channel.server.ts'
import { pushChannel } from '~/services/alerts/push-channel.server.ts'
import { telegramChannel } from '~/services/alerts/telegram-channel.server.ts'

// The alert channels the site has (docs/rules.md#alerts), each from its own module; a channel
// without its settings reports enabled() false and is hidden everywhere.
export const alertChannels: readonly AlertChannel[] = [telegramChannel, pushChannel()]

/** The channels configured on this site, in the order the profile lists them. */
export function enabledChannels(channels: readonly AlertChannel[] = alertChannels) {
  return channels.filter((channel) => channel.enabled())
}
