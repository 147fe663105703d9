import type { ActionFunctionArgs } from '@remix-run/node'
import { setWatching, WATCH_NS } from '~/models/watch.server.ts'
import { getFixedT } from '~/i18n/i18next.server.ts'
import { answerRefusals, json, methodNotAllowed } from '~/utils/api.server.ts'
import { requireApiUser } from '~/services/guards.server.ts'

// POST | DELETE /api/auctions/{id}/watch -> {watching} (docs/rules.md#watchlist).
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== 'POST' && request.method !== 'DELETE') return methodNotAllowed(request)
  const t = await getFixedT(request, [WATCH_NS, 'common'])
  const user = await requireApiUser(request, t)
  return answerRefusals(t, async () => {
    const watching = await setWatching(
      context.engine,
      user.id,
      params.id ?? '',
      request.method === 'POST',
    )
    return json({ watching })
  })
}

export const loader = ({ request }: { request: Request }) => methodNotAllowed(request)
