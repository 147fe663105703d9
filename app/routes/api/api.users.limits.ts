import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { getLimits, setLimits } from '~/services/limits.server.ts'
import { requireApiUser } from '~/services/guards.server.ts'
import {
  answerRefusals,
  json,
  methodNotAllowed,
  readJson,
  translator,
  validate,
} from '~/utils/api.server.ts'
import { limitsSchema } from '~/validation/limits.ts'

// The limits a bidder sets (docs/rules.md#limits-a-bidder-sets).

/** GET -> {dailyBidLimit, selfExcludedUntil, pending, bidsToday}. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const t = await translator(request)
  const user = await requireApiUser(request, t)
  return answerRefusals(t, async () => json(await getLimits(context.engine, user.id)))
}

/** PUT {dailyBidLimit?: number | null, selfExcludeDays?: number} -> the limits as GET says. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'PUT') return methodNotAllowed(request)
  const t = await translator(request)
  const user = await requireApiUser(request, t)
  const change = validate(limitsSchema, await readJson(request, t), t)
  return answerRefusals(t, async () => json(await setLimits(context.engine, user.id, change)))
}
