import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { AUTOBID_NS, getAutoBid, startAutoBid, stopAutoBid } from '~/models/autobid.server.ts'
import { getFixedT } from '~/i18n/i18next.server.ts'
import { requireApiUser } from '~/services/guards.server.ts'
import { apiError, json, methodNotAllowed, readJson } from '~/utils/api.server.ts'
import { getPrisma } from '~/utils/db.server.ts'

// GET | POST {bids} | DELETE /api/auctions/{id}/autobid: the caller's auto-bidder on an auction.

async function caller(request: Request, auctionId: string) {
  const t = await getFixedT(request, AUTOBID_NS)
  const user = await requireApiUser(request, t, 'autobid:loginRequired')
  const known =
    auctionId.length > 0 &&
    auctionId.length <= 64 &&
    (await getPrisma().auction.count({ where: { id: auctionId } })) > 0
  if (!known) throw apiError(404, t('autobid:errors.auction_not_found'))
  return { t, user }
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const id = params.id ?? ''
  const { user } = await caller(request, id)
  return json({ autoBid: await getAutoBid(context.engine, id, user.id) })
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== 'POST' && request.method !== 'DELETE') return methodNotAllowed(request)
  const id = params.id ?? ''
  const { t, user } = await caller(request, id)
  const outcome =
    request.method === 'POST'
      ? await startAutoBid(context.engine, id, user.id, await readJson(request, t), t)
      : await stopAutoBid(context.engine, id, user.id, t)
  if (!outcome.ok) return apiError(outcome.status, outcome.message)
  return json({
    ok: true,
    message: outcome.message,
    bidBalance: outcome.balance,
    autoBid: outcome.autoBid,
  })
}
