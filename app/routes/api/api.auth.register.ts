import type { ActionFunctionArgs } from '@remix-run/node'
import { getUserView } from '~/models/user-view.server.ts'
import { register } from '~/services/registration.server.ts'
import {
  apiError,
  json,
  tooMany,
  methodNotAllowed,
  readJson,
  translator,
  validate,
} from '~/utils/api.server.ts'
import { registerSchema } from '~/validation/user.ts'

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(request)
  const t = await translator(request)
  const body = validate(registerSchema, await readJson(request, t), t)
  const outcome = await register(request, context, body)
  if (!outcome.ok)
    return outcome.status === 429
      ? tooMany(t, outcome.seconds)
      : apiError(outcome.status, t(outcome.message))
  return json(
    { user: await getUserView(context.engine, outcome.userId) },
    { status: 201, headers: { 'Set-Cookie': outcome.cookie } },
  )
}

export const loader = ({ request }: { request: Request }) => methodNotAllowed(request)
