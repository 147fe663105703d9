import { countDevices } from '~/models/push-subscription.server.ts'
import { getEnv } from '~/utils/env.server.ts'
import { vapidOf, type Vapid } from '~/utils/env-push.server.ts'

// Whether the site has Web Push (docs/push.md): only with its VAPID keys in the environment;
// without them the push channel, its calls and its profile section are hidden everywhere.

export function siteVapid(): Vapid | null {
  return vapidOf(getEnv())
}

/** What the profile's push section needs, or null when the site has no Web Push. */
export async function pushProfile(
  userId: string,
): Promise<{ publicKey: string; devices: number } | null> {
  const vapid = siteVapid()
  if (!vapid) return null
  return { publicKey: vapid.publicKey, devices: await countDevices(userId) }
}
