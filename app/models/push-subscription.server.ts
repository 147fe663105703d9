import { createHash } from 'node:crypto'
import { getPrisma } from '~/utils/db.server.ts'
import type { SubscriptionInput } from '~/validation/push.server.ts'

// The devices a person receives Web Push alerts on (docs/push.md). An endpoint is one browser on
// one device: subscribing it again (after a sign-in as someone else on the same browser) moves it
// to the person now signed in, so alerts never reach the previous one there. A subscription
// belongs to the session it was made in and ends with it (a logout; the row goes with the
// session's, app/services/auth.server.ts).

/** Devices kept per person; subscribing one more forgets the oldest. */
export const DEVICES_MAX = 20

export type PushDevice = { endpoint: string; p256dh: string; auth: string }

/** Saves the device for the person, as belonging to `sessionId` (the session it was made in). */
export async function saveSubscription(
  userId: string,
  input: SubscriptionInput,
  userAgent: string | null,
  sessionId: string | null = null,
) {
  const prisma = getPrisma()
  const fields = {
    userId,
    sessionId,
    p256dh: input.keys.p256dh,
    auth: input.keys.auth,
    userAgent: deviceLabel(userAgent),
  }
  await prisma.pushSubscription.upsert({
    where: { endpoint: input.endpoint },
    create: { endpoint: input.endpoint, ...fields },
    update: fields,
  })
  const extra = await prisma.pushSubscription.findMany({
    where: { userId },
    orderBy: { createdAt: 'desc' },
    skip: DEVICES_MAX,
    select: { id: true },
  })
  if (extra.length > 0) {
    await prisma.pushSubscription.deleteMany({ where: { id: { in: extra.map((row) => row.id) } } })
  }
}

/** Forgets one of the person's devices; an endpoint that is not theirs is left alone. */
export async function deleteSubscription(userId: string, endpoint: string) {
  await getPrisma().pushSubscription.deleteMany({ where: { userId, endpoint } })
}

/** Forgets every device of the person ("log out on all devices"). */
export async function forgetDevices(userId: string) {
  await getPrisma().pushSubscription.deleteMany({ where: { userId } })
}

/** Forgets an endpoint its push service says is gone (404, 410). */
export async function forgetEndpoint(endpoint: string) {
  await getPrisma().pushSubscription.deleteMany({ where: { endpoint } })
}

export async function listDevices(userId: string): Promise<PushDevice[]> {
  return getPrisma().pushSubscription.findMany({
    where: { userId },
    orderBy: { createdAt: 'asc' },
    select: { endpoint: true, p256dh: true, auth: true },
  })
}

/** The people among these who have a device subscribed. */
export async function withDevices(userIds: readonly string[]): Promise<Set<string>> {
  const devices = await getPrisma().pushSubscription.findMany({
    where: { userId: { in: [...userIds] } },
    distinct: ['userId'],
    select: { userId: true },
  })
  return new Set(devices.map((device) => device.userId))
}

/**
 * The person's devices as the profile's script may know them: each endpoint's SHA-256 (hex),
 * never the endpoint. The script tells "on here" only for its own browser's subscription among
 * them (app/utils/push-device.client.ts `endpointKey`): after someone else's logout on a shared
 * browser, its leftover subscription is not this person's.
 */
export async function deviceKeys(userId: string): Promise<string[]> {
  const devices = await listDevices(userId)
  return devices.map((device) => createHash('sha256').update(device.endpoint).digest('hex'))
}

export async function countDevices(userId: string): Promise<number> {
  return getPrisma().pushSubscription.count({ where: { userId } })
}

const BROWSERS: [RegExp, string][] = [
  [/Edg\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/YaBrowser\//, 'Yandex Browser'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\//, 'Chrome'],
  [/Safari\//, 'Safari'],
]
const SYSTEMS: [RegExp, string][] = [
  [/Android/, 'Android'],
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
]

/** "Chrome on Android": what a person recognises their device by, never the whole header. */
export function deviceLabel(userAgent: string | null): string | null {
  if (!userAgent) return null
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1]
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1]
  if (browser && system) return `${browser} on ${system}`
  return browser ?? system ?? null
}
