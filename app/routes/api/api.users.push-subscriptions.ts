import type { ActionFunctionArgs } from '@remix-run/node'
import { deleteSubscription, saveSubscription } from '~/models/push-subscription.server.ts'
import { refusedSubscription } from '~/services/push/endpoint.server.ts'
import { siteVapid } from '~/services/push/push.server.ts'
import { getSessionId } from '~/services/session.server.ts'
import {
  apiError,
  json,
  methodNotAllowed,
  readJson,
  translator,
  validate,
} from '~/utils/api.server.ts'
import { requireApiUser } from '~/services/guards.server.ts'
import { subscriptionSchema, unsubscribeSchema } from '~/validation/push.server.ts'

// This device's Web Push subscription for the person signed in (docs/push.md):
// POST the browser's PushSubscription JSON -> 201 {"subscribed": true};
// DELETE {"endpoint"} -> {"subscribed": false}. Both idempotent. 404 when the site has no
// Web Push (no VAPID keys). An endpoint that is not a public address is refused (400; 503 when
// its host could not be looked up just now).

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST' && request.method !== 'DELETE') return methodNotAllowed(request)
  const t = await translator(request)
  if (!siteVapid()) return apiError(404, t('push:errors.unavailable'))
  const user = await requireApiUser(request, t)
  const body = await readJson(request, t)
  if (request.method === 'DELETE') {
    const { endpoint } = validate(unsubscribeSchema, body, t)
    await deleteSubscription(user.id, endpoint)
    return json({ subscribed: false })
  }
  const input = validate(subscriptionSchema, body, t)
  const refused = await refusedSubscription(input.endpoint)
  if (refused) return apiError(refused.status, t(refused.key))
  // The device's alerts end with this session (a logout ends them; docs/push.md).
  const sessionId = await getSessionId(request)
  await saveSubscription(user.id, input, request.headers.get('User-Agent'), sessionId)
  return json({ subscribed: true }, 201)
}

export const loader = ({ request }: { request: Request }) => methodNotAllowed(request)
