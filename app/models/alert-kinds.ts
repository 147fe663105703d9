// Alert kinds and channels (docs/rules.md#alerts): the names a person's alert choices, the
// deliveries and the alert queue store. What a channel does: app/services/alerts/channel.server.ts.

/** The alerts a person can choose per channel in the profile. */
export const ALERT_KINDS = [
  'startsSoon',
  'started',
  'outbid',
  'won',
  'offered',
  'orderLapses24h',
  'orderLapses2h',
  'paymentCredited',
  'orderShipped',
] as const
export type AlertKind = (typeof ALERT_KINDS)[number]

export const ALERT_CHANNELS = ['telegram', 'push'] as const
export type AlertChannelName = (typeof ALERT_CHANNELS)[number]
