import type { Agent } from 'node:https'
import webpush, { WebPushError } from 'web-push'
import {
  forgetEndpoint,
  listDevices,
  withDevices,
  type PushDevice,
} from '~/models/push-subscription.server.ts'
import { pushAgent, refusedBeforeSend } from '~/services/push/endpoint.server.ts'
import { siteVapid } from '~/services/push/push.server.ts'
import type { Vapid } from '~/utils/env-push.server.ts'
import type { AlertKind } from '~/models/alert-kinds.ts'
import type { AlertChannel, AlertMessage, SendOutcome } from '~/services/alerts/channel.server.ts'

// The Web Push alert channel (docs/push.md): an alert goes to each of the person's devices
// through their push services (RFC 8030), signed with the site's VAPID key (RFC 8292) and
// encrypted for the device (RFC 8291) by the `web-push` library. An endpoint answering 404 or
// 410 is forgotten; 429 or 503 with Retry-After is a wait the queue honours.

/**
 * How long a push service may hold an alert for a device that is offline (seconds), and how
 * urgent it is (RFC 8030 §5.2, §5.3): news about a running auction is worthless after minutes.
 */
const DELIVERY: Record<AlertKind, { ttl: number; urgency: 'high' | 'normal' }> = {
  startsSoon: { ttl: 5 * 60, urgency: 'high' },
  started: { ttl: 10 * 60, urgency: 'high' },
  outbid: { ttl: 5 * 60, urgency: 'high' },
  won: { ttl: 24 * 3600, urgency: 'high' },
  offered: { ttl: 24 * 3600, urgency: 'high' },
  orderLapses24h: { ttl: 12 * 3600, urgency: 'normal' },
  orderLapses2h: { ttl: 2 * 3600, urgency: 'high' },
  paymentCredited: { ttl: 24 * 3600, urgency: 'normal' },
  orderShipped: { ttl: 24 * 3600, urgency: 'normal' },
}

/** A push service that does not answer within this long is tried again later. */
const TIMEOUT_MS = 10_000

/** The payload the service worker shows (app/service-worker/sw.js). */
export function pushPayload(message: AlertMessage): string {
  return JSON.stringify({ title: message.title, body: message.body, url: message.url })
}

type DeviceOutcome =
  | { status: 'sent' }
  | { status: 'gone' }
  | { status: 'retry'; retryAfterMs?: number; reason: string }
  | { status: 'failed'; reason: string }

/** A Retry-After header (seconds or an HTTP date, RFC 9110 §10.2.3) in milliseconds. */
export function retryAfterMs(header: string | undefined, now = Date.now()): number | undefined {
  if (!header) return undefined
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000
  const at = Date.parse(header)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

function outcomeOf(error: unknown): DeviceOutcome {
  if (!(error instanceof WebPushError)) {
    // No answer at all (refused connection, timeout, DNS): the service may be back later.
    return { status: 'retry', reason: error instanceof Error ? error.message : String(error) }
  }
  const status = error.statusCode
  const reason = `push service answered ${status}`
  if (status === 404 || status === 410) return { status: 'gone' }
  if (status === 429 || status >= 500) {
    return { status: 'retry', retryAfterMs: retryAfterMs(error.headers?.['retry-after']), reason }
  }
  // 400, 401, 403, 413: the request itself is wrong (a key the device was not subscribed with,
  // a payload too large); sending it again changes nothing.
  return { status: 'failed', reason }
}

/** Several devices' outcomes as one: sent to any device counts as sent, so none is sent twice. */
function combined(outcomes: DeviceOutcome[]): SendOutcome {
  if (outcomes.some((o) => o.status === 'sent')) return { status: 'sent' }
  const retries = outcomes.filter((o) => o.status === 'retry')
  if (retries.length > 0) {
    const waits = retries.flatMap((o) => (o.retryAfterMs === undefined ? [] : [o.retryAfterMs]))
    return {
      status: 'retry',
      ...(waits.length > 0 ? { retryAfterMs: Math.max(...waits) } : {}),
      reason: retries[0]!.reason,
    }
  }
  if (outcomes.every((o) => o.status === 'gone')) return { status: 'gone' }
  const failed = outcomes.find((o) => o.status === 'failed')
  return { status: 'failed', reason: failed?.status === 'failed' ? failed.reason : 'not sent' }
}

export type PushChannelOptions = {
  /** The site's VAPID details; from the environment when left out. */
  vapid?: Vapid | null
  /** The HTTPS agent for the push services (a test's fake has a certificate of its own). */
  agent?: Agent
}

export function pushChannel(options: PushChannelOptions = {}): AlertChannel {
  const vapid = () => (options.vapid === undefined ? siteVapid() : options.vapid)

  async function sendTo(device: PushDevice, message: AlertMessage, details: Vapid) {
    const { ttl, urgency } = DELIVERY[message.kind]
    // Only a push service on a public address (app/services/push/endpoint.server.ts).
    const refused = await refusedBeforeSend(device.endpoint)
    if (refused) return refused
    try {
      await webpush.sendNotification(
        { endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } },
        pushPayload(message),
        {
          vapidDetails: details,
          TTL: ttl,
          urgency,
          timeout: TIMEOUT_MS,
          agent: options.agent ?? pushAgent(),
        },
      )
      return { status: 'sent' } as const
    } catch (error) {
      const outcome = outcomeOf(error)
      if (outcome.status === 'gone') await forgetEndpoint(device.endpoint)
      return outcome
    }
  }

  return {
    name: 'push',
    enabled: () => vapid() !== null,
    reachable: async (userIds) => (vapid() === null ? new Set() : withDevices(userIds)),
    async send(userId, message) {
      const details = vapid()
      if (!details) return { status: 'unreachable' }
      const devices = await listDevices(userId)
      if (devices.length === 0) return { status: 'unreachable' }
      return combined(await Promise.all(devices.map((device) => sendTo(device, message, details))))
    },
  }
}
