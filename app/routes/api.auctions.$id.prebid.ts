import type { ActionFunctionArgs } from '@remix-run/node'
import { placePrebid, type BidOutcome } from '~/services/bidding.server.ts'
import { errorFields, log } from '~/services/logger.server.ts'
import { getOptionalUserId } from '~/services/session.server.ts'
import { apiError, json, methodNotAllowed, translator } from '~/utils/api.server.ts'

export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(request)
  const t = await translator(request)
  let outcome: BidOutcome
  try {
    const userId = await getOptionalUserId(request)
    if (!userId) return apiError(401, t('bidding.loginToPrebid'))
    outcome = await placePrebid(context.engine, params.id ?? '', userId, t)
  } catch (error) {
    // Redis or Postgres out of reach: a clean answer to retry, not a 500.
    log.warn('prebid not placed: a service is unavailable', errorFields(error))
    return apiError(503, t('api.unavailable'), { headers: { 'Retry-After': '2' } })
  }
  if (!outcome.ok) return apiError(outcome.status, outcome.message)
  return json({ ok: true, message: outcome.message, bidBalance: outcome.balance })
}

export const loader = ({ request }: { request: Request }) => methodNotAllowed(request)
