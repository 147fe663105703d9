import type { ActionFunctionArgs } from '@remix-run/node'
import { setWatching, WATCH_NS } from '~/models/watch.server.ts'
import { getFixedT } from '~/services/i18n.server.ts'
import { apiError, json, methodNotAllowed, requireApiUser } from '~/utils/api.server.ts'
import { DomainError } from '~/utils/domain-error.ts'

// POST | DELETE /api/auctions/{id}/watch -> {watching} (docs/rules.md#watchlist).
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== 'POST' && request.method !== 'DELETE') return methodNotAllowed(request)
  const t = await getFixedT(request, [WATCH_NS, 'common'])
  const user = await requireApiUser(request, t)
  try {
    const watching = await setWatching(
      context.engine,
      user.id,
      params.id ?? '',
      request.method === 'POST',
    )
    return json({ watching })
  } catch (error) {
    if (error instanceof DomainError) return apiError(error.status, t(error.key))
    throw error
  }
}

export const loader = ({ request }: { request: Request }) => methodNotAllowed(request)
